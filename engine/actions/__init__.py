"""R4: the 25 actions, one record each with its behaviour, by family: aim and shooting
(:mod:`.aim`), movement and charge (:mod:`.movement`), hands and objects
(:mod:`.hands`), defence (:mod:`.defence`) and the rest (:mod:`.other`).

>>> ACTIONS["charge"].category
<Category.COMPLEXE: 'complexe'>
>>> ACTIONS["charge"].required
('distance', 'test_result')
>>> len(ACTIONS)
25
"""

from __future__ import annotations

from .aim import AJUSTER_TIR, ENCOCHER_FLECHE, LANCER_ARME, TIR_ARC
from .base import Action
from .defence import BLOQUER, ESQUIVE_ACROBATIQUE, ESQUIVER, INTERCEPTER, PARER
from .hands import LACHER_OBJET, PRENDRE_OBJET, PREPARER_ARME, UTILISER_OBJET
from .movement import CHARGE, COURIR, SE_DEPLACER, SE_JETER_AU_SOL, SE_METTRE_A_COUVERT, SE_RELEVER
from .other import ATTAQUE_MELEE, DIRE_PHRASE, DONNER_ORDRE, FAIRE_GESTE, OBSERVER, UTILISER_COMPETENCE

#: Every action by id, in the order of the R4 table.
ACTIONS: dict[str, Action] = {a.id: a for a in (
    DIRE_PHRASE, FAIRE_GESTE, LACHER_OBJET, SE_JETER_AU_SOL,
    AJUSTER_TIR, ENCOCHER_FLECHE, LANCER_ARME, OBSERVER, PRENDRE_OBJET, PREPARER_ARME, SE_DEPLACER, COURIR,
    SE_METTRE_A_COUVERT, SE_RELEVER, TIR_ARC, UTILISER_OBJET,
    ATTAQUE_MELEE, CHARGE, DONNER_ORDRE, UTILISER_COMPETENCE,
    BLOQUER, ESQUIVER, PARER, INTERCEPTER, ESQUIVE_ACROBATIQUE,
)}

__all__ = ["ACTIONS", "Action"]
