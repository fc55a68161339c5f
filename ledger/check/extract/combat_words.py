"""The word classes of combat phrasing: verbs and phrases of a blow landing or missing, of damage and
defence, the words for weapons and natural weapons, and the parts of a body a blow is taken in.

Moved out of :mod:`.combat` (which reads them) so that module stays under the size limit; also read by
:mod:`.blows`. Imports nothing of the package.
"""

from __future__ import annotations

import re

_KILL_VERBS = frozenset({"kill", "slay", "finish", "fell"})


_HIT = frozenset(
    [
        "hit",
        "hits",
        "strike",
        "strikes",
        "struck",
        "slam",
        "slams",
        "bite",
        "bites",
        "finds",
        "sink",
        "sinks",
        "bury",
        "buries",
        "cut",
        "cuts",
        "slash",
        "slashes",
        "pierce",
        "pierces",
        "connect",
        "connects",
        "wound",
        "wounds",
        "smash",
        "smashes",
        "cleave",
        "cleaves",
        "stab",
        "stabs",
        "gash",
        "gashes",
        "crunch",
        "crunches",
        "slice",
        "slices",
        "punch",
        "punches",
        "tear",
        "tears",
        "rake",
        "rakes",
        "skewer",
        "skewers",
        "impale",
        "impales",
        "lodge",
        "lodges",
        "batter",
        "batters",
        "sear",
        "sears",
        "scorch",
        "scorches",
        "burn",
        "burns",
        "hammer",
        "hammers",
        "crush",
        "crushes",
        "maul",
        "mauls",
        "gore",
        "gores",
        "shatter",
        "shatters",
        "kill",
        "kills",
        "slay",
        "slays",
        "fells",
        "finishes",
        "lands",
        "catches",
        "takes",
        "opens",
        "bites",
        "finds",
    ]
)
_HIT = _HIT | {
    "open",
    "rake",
    "rip",
    "rips",
    "tear",
    "drives",
    "plunges",
    "punches",
    "engulf",
    "engulfs",
    "smite",
    "smites",
    "blast",
    "blasts",
    "wreathes",
    "consumes",
    "rakes",
    "claws",
}
_MISS = frozenset(
    [
        "miss",
        "misses",
        "missed",
        "dodge",
        "dodges",
        "dodged",
        "sidestep",
        "sidesteps",
        "duck",
        "ducks",
        "parry",
        "parries",
        "deflect",
        "deflects",
        "harmlessly",
        "evades",
    ]
)
_MISS_PHRASES = re.compile(
    r"\b(?:goes wide|go wide|went wide|glances? off|whistle[sd]? past|hums? (?:harmlessly )?past|"
    r"skims? (?:past|over)|throws (?:himself|herself|itself) (?:aside|behind|clear|down)|"
    r"dives? (?:aside|behind|clear)|bites (?:wood|stone|dirt|earth|air)|finds only|whirls past|spins past|"
    r"rings off|thuds into the|sails? (?:past|over|wide)|fails? to|falls? short|"
    r"only air|empty air|just short|a hair's breadth|clatters? off|skitters? off|turns? aside|rolls? aside|"
    r"turned (?:aside|away)|fizzle[sd]?|sputters? out|peters? out|falls? flat|to no effect|"
    r"(?:a|an|one|two|three|a few|several) (?:yards?|feet|foot|inch|inches|hand's breadth|finger's width|"
    r"handspan|pace|paces) (?:from|short of|wide of|away from)|inches from|wide of|"
    r"deflected|parried|blocked|glanced off|"
    # a blow turned by what it meets: "bounces off her shield", "clangs off his helm", "skids off the mail"
    r"(?:bounce[sd]?|rebound(?:s|ed)?|skid(?:s|ded)?|skate[sd]?|slide[sd]?|slid|clang(?:s|ed)?|"
    r"ricochet(?:s|ed)?|carom(?:s|ed)?|spang(?:s|ed)?) off|"
    r"comes? up empty|came up empty|overreach(?:es|ed)?|out of (?:its |his |her |their )?reach|"
    r"nothing but air|"
    r"(?:hits?|finds?|strikes?|catches?|meets?) nothing)\b"
)
_DAMAGE = frozenset(
    [
        "bleeds",
        "bleeding",
        "bloodied",
        "staggers",
        "reels",
        "wounded",
        "gasps",
        "howls",
        "shrieks",
        "winces",
        "blood",
        "cries",
        "stumbles",
    ]
)


_DEFEND = frozenset(
    {
        "dodge",
        "sidestep",
        "duck",
        "parry",
        "deflect",
        "twist",
        "block",
        "roll",
        "leap",
        "jump",
        "sway",
        "weave",
        "evade",
    }
)
_DEFEND = _DEFEND | {"ignore", "resist", "withstand"}


_WEAPONS = frozenset(
    [
        "cut",
        "thrust",
        "stroke",
        "lunge",
        "attack",
        "riposte",
        "counter",
        "insult",
        "taunt",
        "mockery",
        "curse",
        "prayer",
        "words",
        "arrow",
        "arrows",
        "bolt",
        "bolts",
        "blade",
        "blades",
        "axe",
        "sword",
        "spear",
        "dagger",
        "knife",
        "cudgel",
        "club",
        "claws",
        "claw",
        "fist",
        "fists",
        "swing",
        "strike",
        "blow",
        "blows",
        "spell",
        "flame",
        "flames",
        "fire",
        "hammer",
        "greataxe",
        "mace",
        "teeth",
        "jaws",
        "bite",
        "shot",
        "throw",
        "lance",
        "staff",
        "whip",
        "rapier",
        "scimitar",
        "javelin",
        "javelins",
        "knuckles",
        "talons",
        "tail",
        "boot",
        "shield",
        "sling",
        "stone",
        "ray",
        "bolt",
        "magic",
        "hand",
        "hands",
        # more arms and natural weapons: "the ogre's maul", "the boar's tusks"
        "maul",
        "glaive",
        "halberd",
        "flail",
        "morningstar",
        "scythe",
        "sickle",
        "trident",
        "harpoon",
        "pick",
        "pistol",
        "musket",
        "crossbow",
        "quarrel",
        "fang",
        "fangs",
        "tusk",
        "tusks",
        "horn",
        "horns",
        "hoof",
        "hooves",
        "pincer",
        "pincers",
        "stinger",
        "tentacle",
        "tentacles",
        "paw",
        "paws",
    ]
)


# verbs of a blow landing, by lemma: they count only with a creature right after them as the one struck
# ("clips Ana's temple", "thumps him in the chest", "knocks the goblin flat"), never with a thing ("kicks
# the door open")
_CONTACT = frozenset(
    {
        "clip",
        "graze",
        "nick",
        "thump",
        "whack",
        "bash",
        "club",
        "kick",
        "gouge",
        "sting",
        "bludgeon",
        "backhand",
        "knock",
        "pummel",
        "pound",
        "thrash",
        "wallop",
        "clout",
        "cuff",
        "butt",
        "headbutt",
        "ram",
        "spear",
        "lash",
        "whip",
        "slap",
        "smack",
        "bowl",
        "flatten",
        "floor",
        "trample",
        "stomp",
        "bite",
        "claw",
        "scratch",
    }
)
_BODY_PARTS = frozenset(
    {
        "head",
        "face",
        "temple",
        "jaw",
        "chin",
        "cheek",
        "nose",
        "mouth",
        "eye",
        "ear",
        "neck",
        "throat",
        "shoulder",
        "arm",
        "elbow",
        "wrist",
        "hand",
        "fingers",
        "chest",
        "ribs",
        "side",
        "flank",
        "belly",
        "stomach",
        "gut",
        "back",
        "spine",
        "hip",
        "thigh",
        "leg",
        "knee",
        "shin",
        "ankle",
        "foot",
        "brow",
        "skull",
        "forearm",
        "calf",
        "legs",
        "arms",
        "shoulders",
        "hands",
        "eyes",
        "feet",
        "midriff",
        "kidney",
    }
)
# "takes the brute square in its left eye", "catches him on the jaw": a blow taking someone in a body part
_TAKES_IN = re.compile(
    r"\b(?:takes?|took|catch(?:es)?|caught) (?:\w+ ){0,3}(?:in|on) (?:the|its|his|her|their) (?:\w+ )?(?:"
    + "|".join(sorted(_BODY_PARTS))
    + r")\b"
)
_FLUNG = frozenset({"sprawling", "flying", "reeling", "tumbling", "staggering", "crashing"})
_STRUCK_PRONOUNS = frozenset({"him", "her", "them", "it"})
