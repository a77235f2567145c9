from pyscript import sync

import floorpkg

sync.call = floorpkg.answer
