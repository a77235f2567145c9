import floorpkg
from pyscript import sync

sync.call = floorpkg.answer
