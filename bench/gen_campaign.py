"""Generate seeded long campaigns (scenario TOML) with recall probes (JSON), the measuring tool of issue 11.

``python3 bench/gen_campaign.py --seed N [--sessions 50] --out DIR`` writes ``DIR/campaign-<N>.toml`` and
``DIR/probes-<N>.json``. A campaign has 36 NPCs in families (kin edges that name the kinship: ``sister``,
``father``, ``aunt`` ...), sworn allies, employers and factions (edges ``ally``, ``employer``, ``member``:
a faction is the edge to its leader, the format has no faction record), feuds (``enemy`` edges set by a
history entry), some NPCs dying in the history, 40 threads of every kind (some settled by a history entry,
some open, some private to one player), 4 PCs with owners and about 39 history entries per session: trivia
(small talk and sightings at places, a few moves) and notable narrative events (bargains, insults, rescues,
warnings ...). A narrative event is a ``[[history]]`` entry with no state change and the keys ``event``
(a kind of :mod:`ledger.store.narrative`), ``participants``, ``place`` and optionally ``thread``. No entry
carries ``importance`` or ``permanent``: a ranker must judge what matters from the records themselves.

The probes file holds 150 scenes, 25 of each kind of the issue's table (:data:`PROBE_KINDS`). A probe names
its scene (``location``, ``present``: NPC ids only; the bench adds the PCs for its second mode), its
``viewer`` (``gm``, ``party`` or ``player:<handle>``), ``decisive`` (any one of these record ids in the
top 10 satisfies it: a thread id, a history entry id, or an edge ref ``source>target:kind``; for a settled
matter the settlement entry or the thread record, which renders with its settled status) and
``must_not`` (ids that must not be retrieved: records private to another player). A secret-scope probe
also has ``other_views``: the same scene seen by another player, for whom the secret is ``must_not``.
``why`` says in words what the probe asks; it is for people, never for the ranker.

The generator decides its world with one ``random.Random(seed)`` and never iterates a set, so the same seed
and session count give byte-identical files. It imports nothing from the project, so what it writes is
independent of the code it measures.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ledger.store.narrative import NARRATIVE_KINDS, significance

PROBE_KINDS = ("old_open", "crowded", "settled", "dead_party", "trivia_only", "secret")
PROBES_PER_KIND = 25
NARRATIVE_KEYS = ("event", "participants", "place", "thread")
#: Narrative kinds this generator writes as notable (bonds and words that change how people stand) and as
#: trivia (small talk and sightings), read from the one vocabulary in ledger.store.narrative.
NOTABLE_KINDS = tuple(k for k in NARRATIVE_KINDS if significance(k, participants=1) >= 2)
TRIVIA_KINDS = tuple(k for k in NARRATIVE_KINDS if significance(k, participants=1) == 0)
#: Thread kinds a probe about an old obligation asks for (quests and prophecies are current matters).
OBLIGATION_KINDS = ("favour", "debt", "oath", "bounty")
EVENTS_PER_SESSION = 39
N_LOCATIONS = 12
FAMILY_SIZES = (4, 3, 3, 3, 2, 2, 2)
N_SINGLES = 17  # 19 NPCs in families + 17 on their own = 36
N_TRIVIA_ONLY = 8
N_SETTLED_NPCS = 7

# ------------------------------------------------------------------------------------------------ pools
# fmt: off
FEMALE = (
    "Ilse", "Marta", "Odile", "Saoirse", "Yevna", "Tamsin", "Brisa", "Hedda", "Noor", "Adaeze", "Liesl",
    "Rosalind", "Wenna", "Petra", "Zofia", "Isaura", "Morwen", "Calla", "Jessamy", "Thea", "Ysolde",
    "Agathe", "Dagny", "Kesi", "Lioba", "Mireille", "Nell", "Orla", "Perpetua", "Sabine", "Tove", "Una",
    "Vesna", "Xanthe", "Yara", "Branwen", "Elowen", "Fenna", "Gisela", "Halima", "Ingrid", "Juno", "Katell",
    "Lenka", "Maelis", "Nadia", "Ottilie", "Rhiannon", "Senna", "Talia", "Verity", "Winifred", "Aurelie",
    "Cosima", "Delphine", "Esme", "Greta", "Honor", "Imke",
)
MALE = (
    "Aldric", "Bram", "Casimir", "Dov", "Emrys", "Fennick", "Goran", "Hobb", "Ivo", "Jory", "Kester",
    "Lorcan", "Matthias", "Nico", "Osric", "Piet", "Quentin", "Rafe", "Soren", "Tobias", "Ulric", "Vasil",
    "Wystan", "Yusuf", "Zeb", "Anselm", "Benedek", "Cormac", "Dario", "Eamon", "Florian", "Gideon", "Hamish",
    "Idris", "Jarek", "Konrad", "Leof", "Mads", "Niall", "Odo", "Pavel", "Rurik", "Silas", "Tamas",
    "Valentin", "Wendel", "Yorick", "Aurel", "Barnaby", "Crispin", "Dunstan", "Elric", "Gaspard", "Hollis",
    "Kofi", "Lucan", "Marek", "Oswin", "Teodor",
)
FAMILY_NAMES = (
    "Ashdown", "Brackwater", "Corran", "Dunmore", "Elsworth", "Fairweather", "Greaves", "Hollins",
    "Ironside", "Jessop", "Kettle", "Lark", "Marchbank", "Nettleby", "Oakes", "Penhallow", "Quarrie", "Rook",
    "Saltonstall", "Thorne", "Underhill", "Whitlock", "Yarrow", "Abernathy", "Blackwood", "Cask", "Drummond",
    "Embry", "Fallow", "Gilly", "Hask", "Inchbald", "Jerrold", "Kinsey", "Lowther", "Merrow", "Nye", "Orme",
    "Pike", "Ravel", "Sorrel", "Tallis", "Umber", "Wren", "Alder", "Brightwater", "Coppersmith", "Dane",
    "Estrin", "Farrow", "Gale", "Hale", "Kell", "Loach", "Mossop", "Norcott", "Pellow", "Ruddock", "Stave",
    "Tuck", "Varga", "Wick", "Zale",
)
TRADES = (
    "chandler", "ferryman", "midwife", "tanner", "tide-priest", "tax-clerk", "fence", "net-maker", "brewer",
    "watchman", "moneylender", "herbalist", "cooper", "ropemaker", "harbour-pilot", "scribe", "baker",
    "smith", "stablehand", "glassblower", "innkeeper", "fishwife", "bargewoman", "gravedigger", "apothecary",
    "sailmaker", "sergeant-of-the-watch", "bookbinder", "dyer", "butcher", "candlemaker", "weaver",
    "locksmith", "shipwright", "lamplighter", "cartographer",
)
TOWNS = (
    "Saltmere", "Greywater", "Harrowby", "Kestrel Ford", "Lowmarsh", "Brinehollow", "Cinderwick", "Amberquay",
)
CAMPAIGN_TITLES = ("The {t} Accounts", "Tides of {t}", "Lanterns over {t}", "The Long Winter of {t}")
LOCATIONS = (
    (
        "salt-market", "The Salt Market", ("the market",),
        "Rows of stalls under patched awnings, loud from dawn.",
    ),
    ("drowned-lantern", "The Drowned Lantern", ("the Lantern",), "A crooked tavern half below street level."),
    ("ropewalk", "The Ropewalk", (), "A long shed where hemp is twisted into hawsers."),
    ("tide-chapel", "The Tide Chapel", ("the chapel",), "A whitewashed chapel where the drowned are named."),
    ("customs-quay", "Customs Quay", ("the quay",), "Bonded sheds and a weighbridge that never balances."),
    ("weir-mill", "The Weir Mill", ("the mill",), "A grinding mill on the river weir, floury and damp."),
    ("tanners-row", "Tanners' Row", (), "Lime pits and hides; the smell reaches the river."),
    (
        "gallows-green", "Gallows Green", ("the green",),
        "A common with an empty gibbet and a fair twice a year.",
    ),
    (
        "lighthouse-point", "Lighthouse Point", ("the point",),
        "A squat tower on the rocks at the harbour mouth.",
    ),
    ("counting-house", "The Counting House", (), "Where the merchants' clerks weigh coin and keep books."),
    (
        "old-bathhouse", "The Old Bathhouse", ("the baths",),
        "Steam, gossip and tiles older than the town wall.",
    ),
    ("north-gate", "The North Gate", ("the gate",), "The road gate, its toll booth and its bored guards."),
    ("boatyard", "Hesketh's Boatyard", ("the boatyard",), "Hulls on slipways and the smell of hot pitch."),
    ("physic-garden", "The Physic Garden", ("the garden",), "Walled beds of simples behind the almshouse."),
    ("grain-exchange", "The Grain Exchange", ("the exchange",), "A pillared hall where sacks change hands."),
    ("ferry-landing", "The Ferry Landing", ("the landing",), "A plank jetty and the ferry bell."),
    ("guildhall", "The Lamplighters' Hall", ("the guildhall",), "A narrow hall full of ladders and wicks."),
    ("watch-house", "The Watch House", (), "Cells below, a duty room above, a kettle always on."),
    ("cracked-bell", "The Cracked Bell Inn", ("the Bell",), "A coaching inn by the road, straw in the yard."),
    ("fish-steps", "The Fish Steps", ("the steps",), "Wet stone stairs where the boats land the catch."),
)
PC_POOL = (
    ("Kestrel Vey", "rogue", "A wiry courier who never forgets a face or a debt."),
    ("Brother Aldous", "cleric", "A soft-spoken priest of the tide with a broken nose."),
    ("Runa Stonehand", "fighter", "A broad shieldmaiden who sells her sword and keeps her word."),
    ("Teodric Vale", "wizard", "A threadbare scholar chasing a drowned library."),
    ("Mags Tilly", "ranger", "A marsh guide with a hound and a crossbow."),
    ("Sefton Ambry", "bard", "A fiddler with a silver tongue and an unpaid tab in every inn."),
    ("Yaretzi Cruz", "paladin", "A knight of a fallen order, still polishing the badge."),
)
HANDLES = ("alice", "bob", "carmen", "dev", "eli", "fern", "gus")
CLASS_SHEETS: dict[str, dict[str, Any]] = {
    "rogue": {
        "abilities": {"str": 10, "dex": 17, "con": 12, "int": 13, "wis": 12, "cha": 14},
        "skills": ["stealth", "sleight_of_hand", "perception"],
        "ac": 14,
        "hp": 27,
        "weapons": ["rapier", "shortbow"],
    },
    "cleric": {
        "abilities": {"str": 12, "dex": 10, "con": 14, "int": 10, "wis": 17, "cha": 13},
        "skills": ["medicine", "religion", "insight"],
        "ac": 16,
        "hp": 31,
        "weapons": ["mace"],
    },
    "fighter": {
        "abilities": {"str": 17, "dex": 12, "con": 16, "int": 10, "wis": 11, "cha": 9},
        "skills": ["athletics", "intimidation"],
        "ac": 18,
        "hp": 40,
        "weapons": ["longsword", "handaxe"],
    },
    "wizard": {
        "abilities": {"str": 8, "dex": 14, "con": 12, "int": 17, "wis": 12, "cha": 10},
        "skills": ["arcana", "history", "investigation"],
        "ac": 12,
        "hp": 22,
        "weapons": ["quarterstaff"],
    },
    "ranger": {
        "abilities": {"str": 12, "dex": 16, "con": 14, "int": 10, "wis": 15, "cha": 9},
        "skills": ["survival", "nature", "perception"],
        "ac": 15,
        "hp": 33,
        "weapons": ["light-crossbow", "shortsword"],
    },
    "bard": {
        "abilities": {"str": 9, "dex": 14, "con": 12, "int": 12, "wis": 10, "cha": 17},
        "skills": ["performance", "persuasion", "deception"],
        "ac": 13,
        "hp": 26,
        "weapons": ["rapier"],
    },
    "paladin": {
        "abilities": {"str": 16, "dex": 10, "con": 14, "int": 9, "wis": 12, "cha": 15},
        "skills": ["athletics", "religion"],
        "ac": 18,
        "hp": 38,
        "weapons": ["longsword", "javelin"],
    },
}
FACTIONS = (
    "the Lamplighters' Guild", "the Tide Wardens", "the Grey Ledger Society", "the Ferrymen's Brotherhood",
    "the Night Market crews", "the Sisters of the Weir",
)
TOPICS = (
    "the price of salt", "the new harbour toll", "last night's storm", "a cousin's wedding up the valley",
    "the lamp oil shortage", "who should mend the chapel roof", "the herring off the point", "a lame mule",
    "the stink from the tanneries", "a rumour of a plague ship", "the magistrate's new wig",
    "the spring fair", "a leaking barrel of cider", "the ferry's broken bell",
    "the quality of this year's hemp", "a dog that steals fish", "the best cure for a cough",
    "the rising price of candles", "the river in flood", "an argument at the grain exchange",
    "whose boat sank in the autumn gale", "the watch's new sergeant", "the weather turning",
    "a song nobody can finish", "a runaway apprentice", "the rats in the bond sheds", "the last harvest",
    "the tide tables", "a ghost said to walk the quay", "a travelling puppet show",
)
DOINGS = (
    "haggling over lamp oil", "mending a net", "walking fast with a covered basket", "feeding the gulls",
    "dozing on a bench", "arguing with a carter", "buying candles", "counting coins under a lamp",
    "carrying a rolled map", "sweeping the steps", "reading a letter twice", "sharpening a knife",
    "waiting for someone who never comes", "buying a pie", "washing a shirt in a bucket",
    "chalking figures on a slate", "carrying two sacks of flour", "whistling a sea shanty",
    "talking to a stray cat", "patching a coat", "watching the boats come in", "tying parcels with twine",
)
TALK_FORMS = (
    "{a} and {b} swap gossip about {topic} at {place}.", "At {place}, {a} grumbles to {b} about {topic}.",
    "{a} shares a pipe with {b} outside {place}, talking of {topic}.",
    "Over a cup at {place}, {a} and {b} argue amiably about {topic}.",
    "{a} tells {b} at length about {topic}; {b1} nods politely.",
    "{a} and {b} pass an hour at {place} discussing {topic}.",
    "{a} stops {b} at {place} to ask about {topic}.",
)
SIGHT_FORMS = (
    "{a} is seen {doing} at {place}.", "Someone spots {a} {doing} near {place}.",
    "{a} spends the afternoon at {place}, {doing}.", "{a} turns up at {place}, {doing}.",
)
MOVE_FORMS = (
    "{a} moves lodgings to be nearer {place}.", "{a} takes work at {place} for the season.",
    "{a} hauls a handcart of belongings over to {place}.",
)
NOTABLE_FORMS: dict[str, tuple[str, ...]] = {
    "bargain": (
        "{a} and {b} strike a bargain at {place}: {goods} for {price}.",
        "After an hour of haggling at {place}, {a} agrees to sell {b} {goods} for {price}.",
    ),
    "promise": (
        "{a} promises {b} to {deed} before the month is out.",
        "At {place}, {a} gives {b} a solemn word to {deed}.",
    ),
    "gift": ("{a} gives {b} {gift} at {place}.", "{a} presses {gift} into {b}'s hands and refuses payment."),
    "rescue": (
        "{a} drags {b} out of {danger} at {place}.",
        "When {danger2} at {place}, {a} gets {b} clear just in time.",
    ),
    "help": ("{a} helps {b} {task} at {place}.", "{a} spends a whole day helping {b} {task}."),
    "betrayal": (
        "{a} sells {b}'s secret about {secret} to {faction}.",
        "{a} gives {b} up to the watch over {secret}.",
    ),
    "theft": ("{a} quietly lifts {thing} from {b} at {place}.", "{a} steals {thing} from under {b}'s nose."),
    "insult": (
        "{a} mocks {b} in front of half of {place} about {sore}.",
        "{a} calls {b} a {slur} in the middle of {place}.",
    ),
    "threat": ("{a} tells {b} at {place} that {threat}.", "{a} corners {b} behind {place}: {threat}."),
    "warning": ("{a} warns {b} that {warning}.", "At {place}, {a} takes {b} aside: {warning}."),
    "confession": (
        "{a} confesses to {b} that {confession}.", "Late at {place}, {a} admits to {b} that {confession}.",
    ),
    "accusation": (
        "{a} accuses {b} of {crime} before witnesses at {place}.",
        "{a} stands up at {place} and names {b} as the one behind {crime}.",
    ),
    "apology": (
        "{a} apologises to {b} for {offence}.", "{a} finds {b} at {place} to say sorry for {offence}.",
    ),
    "discovery": (
        "{a} and {b} find {found} at {place}.", "Digging about at {place}, {a} and {b} turn up {found}.",
    ),
    "revelation": (
        "{a} reveals to {b} that {revelation}.", "At {place}, {a} tells {b} the truth: {revelation}.",
    ),
}
SLOTS: dict[str, tuple[str, ...]] = {
    "goods": (
        "a crate of lamp oil", "two bolts of dyed wool", "a share in a fishing boat",
        "a barrel of salt pork", "the lease on a cellar", "a copper kettle", "a season's herring",
    ),
    "price": (
        "twelve silver", "a favour at the customs house", "a week's labour", "a pair of boots", "forty gold",
        "a barrel of cider",
    ),
    "deed": (
        "find work for a nephew", "keep quiet about the cellar", "speak up at the guild meeting",
        "bring medicine from upriver", "mend the chapel bell", "look after the children for a week",
    ),
    "gift": (
        "a carved whalebone comb", "a warm winter cloak", "a jar of honey", "an old lucky coin",
        "a map of the marsh paths", "a fine knife",
    ),
    "danger": (
        "the flooded weir race", "a burning shed", "the harbour after a fall from the quay",
        "a brawl that turned to knives", "a collapsing cellar",
    ),
    "danger2": (
        "a stack of barrels gives way", "a runaway cart comes down the hill",
        "the ice on the mill pond cracks", "a mooring rope snaps",
    ),
    "task": (
        "shift a season's stock", "bury a dog", "repair a roof before the rain", "search for a lost child",
        "carry a sick mother to the physic garden", "count the tithe sacks",
    ),
    "secret": (
        "a smuggled cargo", "a forged licence", "an unpaid tithe", "a lover in the watch", "a hidden still",
    ),
    "thing": (
        "a purse of silver", "a signet ring", "a ledger page", "a key to the bond shed", "a silver spoon",
    ),
    "sore": ("an old debt", "a failed business", "a runaway husband", "a squint", "watered beer"),
    "slur": ("liar", "cheat", "drunkard", "coward", "thief"),
    "threat": (
        "one more word to the magistrate and the boat burns", "the next late payment will cost a finger",
        "there are men who would do worse for less", "nobody will buy from that stall again",
    ),
    "warning": (
        "the watch is asking questions about the cellar", "a stranger has been asking for them by name",
        "the weir will not hold another flood", "someone has been reading their letters",
    ),
    "confession": (
        "the fire at the rope shed was no accident", "they never paid the tithe last year",
        "they read a letter that was not theirs", "they have been afraid for months",
    ),
    "crime": (
        "watering the cider", "the theft of the chapel plate", "moving the boundary stones",
        "selling short weight", "setting the dogs loose",
    ),
    "offence": ("the harsh words at the fair", "a missed appointment", "a broken cart", "an old accusation"),
    "found": (
        "a rotten floorboard hiding coins", "a drowned man's boot", "an old smuggler's tunnel",
        "a child's wooden toy", "a bundle of letters",
    ),
    "revelation": (
        "their father was never lost at sea", "the mill was built on stolen land",
        "the guild master keeps two ledgers", "the ferry has been carrying contraband for years",
    ),
}
THREAD_FORMS: dict[str, tuple[str, ...]] = {
    "favour": (
        "{n} hid {p} from the watch after the brawl at {place}; {p} owes {n1} a favour, no questions asked.",
        "{n} vouched for {p} before the magistrate; the favour is owed and {n1} will name it.",
        "{n} smuggled {p}'s letters out of the town; {p} owes a favour in return.",
    ),
    "debt": (
        "{p} owes {n} {amount} gp, borrowed to {purpose}.",
        "{n} advanced {p} {amount} gp against {collateral}; repayment was due at the quarter-day.",
    ),
    "oath": ("{p} swore to {n} to {oath}.", "Before the chapel altar {p} swore to {n} to {oath}."),
    "bounty": (
        "{n} offers {amount} gp for {target}; {p} took the job.",
        "{n} posted {amount} gp for {target}, and {p} shook on it.",
    ),
    "quest": ("{n} asked {p} to {quest}.", "{n} begged {p} to {quest}."),
    "prophecy": ("{n} foretold to {p} that {omen}.", "In a fever {n} told {p} that {omen}."),
}
NPC_DEBT_FORMS = ("{n} owes {m} {amount} gp for {purpose}.", "{m} lent {n} {amount} gp to {purpose}; unpaid.")
THREAD_SLOTS: dict[str, tuple[str, ...]] = {
    "purpose": (
        "buy a share in a herring boat", "pay a fine at the watch house", "bribe a customs clerk",
        "settle a gambling debt", "buy passage upriver", "rebuild a burned shed",
    ),
    "collateral": (
        "a silver-hilted sword", "a deed to a fishing hut", "a family brooch", "next season's wages",
    ),
    "oath": (
        "find the man who drowned her brother", "keep the old lighthouse lit through the winter",
        "never draw steel in the chapel", "see her son safely apprenticed", "carry his ashes to the sea",
    ),
    "target": (
        "the arsonist who burned the rope shed", "the highwayman called Red Cowl",
        "whoever poisoned the chapel well", "the smuggler known as the Eel", "the thief of the guild seal",
    ),
    "quest": (
        "find the missing ferry keeper", "recover a stolen ledger from the marsh", "map the old tunnels",
        "escort a wagon of medicine upriver",
    ),
    "omen": (
        "the tower will fall on the night of three moons", "a drowned king will rise at the weir",
        "the town will burn before the lamps are lit",
    ),
}
SETTLE_FORMS: dict[str, tuple[str, ...]] = {
    "favour": (
        "{p} repays {n}'s old favour by {repay}; {n1} declares them even.",
        "{n1} names the favour at last ({repay}), and {p} does it; the slate is clean.",
    ),
    "debt": (
        "{p} counts the last of the money onto {n}'s table, and {n1} tears up the marker.",
        "{p} pays {n} in full, with a little extra for the wait.",
    ),
    "oath": (
        "{p} keeps the oath sworn to {n}: it is done, and {n1} weeps to hear it.",
        "{n} releases {p} from the old oath, fulfilled at last.",
    ),
    "bounty": (
        "{n} pays {p} the bounty once the quarry is brought in.",
        "{p} brings {n} proof, and {n1} pays the bounty in front of the whole market.",
    ),
    "quest": ("{p} reports back to {n}: the task is done.", "{n} thanks {p}; what was asked is finished."),
    "prophecy": ("{n}'s old prophecy is fulfilled, as {p} saw with their own eyes.",),
}
NPC_SETTLE_FORMS = ("{n} finally pays {m} what was owed.", "{m} forgives {n} the old debt over a shared jug.")
REPAYS = (
    "standing surety for a nephew", "carrying a message past the gate at night", "lying to the watch",
    "rowing out to the point in a storm",
)
REMINDER_FORMS: dict[str, tuple[str, ...]] = {
    "favour": ("{n} reminds {p} at {place} that a favour is still owed and will be called in.",),
    "debt": (
        "{n} asks {p}, not kindly, when the money will be paid.",
        "{p} promises {n} the money after the next voyage.",
    ),
    "oath": ("{n} reminds {p} of what was sworn, and asks if there is news.",),
    "bounty": ("{n} asks {p} whether there is any word of the quarry.",),
    "quest": ("{n} asks {p} how the task goes.",),
    "prophecy": ("{n} warns {p} that the omen is close now.",),
}
REMINDER_EVENT = {
    "favour": "warning",
    "debt": "threat",
    "oath": "warning",
    "bounty": "warning",
    "quest": "warning",
    "prophecy": "warning",
}
DEATH_FORMS = (
    "{n} is found drowned beneath {place}.", "A winter fever carries {n} off in the night.",
    "{n} dies of a knife wound in the alley behind {place}; nobody saw the hand that held it.",
    "{n}'s heart gives out on the steps of {place}.", "{n} is killed when a cart overturns at {place}.",
)
FEUD_CAUSES = (
    "a drowned cargo", "a stolen sweetheart", "the boundary of a garden", "a rigged card game",
    "an insult at a funeral", "a burned boat",
)
PRIVATE_FORMS = (
    "{n} tells {p} privately that {secret}.", "In the back room of {place}, {n} confides in {p}: {secret}.",
    "{n} slips {p} a note at {place}: {secret}.",
)
PRIVATE_SECRETS = (
    "the magistrate takes bribes from the smugglers", "the guild seal was forged",
    "the chapel plate lies at the bottom of the weir", "the watch sergeant is a deserter",
    "the ferry keeper was murdered",
)
PRIVATE_THREAD_FORMS: dict[str, str] = {
    "oath": "In secret, {p} swore to {n} never to reveal that {secret}.",
    "favour": "{n} forged papers for {p}, telling no one; {p} owes a favour for it.",
    "debt": "{p} quietly borrowed {amount} gp from {n}, and nobody else knows.",
}
KIN_WORDS = {
    ("parent", "f"): "mother",
    ("parent", "m"): "father",
    ("child", "f"): "daughter",
    ("child", "m"): "son",
    ("sibling", "f"): "sister",
    ("sibling", "m"): "brother",
    ("spouse", "f"): "wife",
    ("spouse", "m"): "husband",
    ("auncle", "f"): "aunt",
    ("auncle", "m"): "uncle",
    ("nibling", "f"): "niece",
    ("nibling", "m"): "nephew",
}
INVERSE = {
    "parent": "child", "child": "parent", "sibling": "sibling", "spouse": "spouse", "auncle": "nibling",
}
# fmt: on

# ------------------------------------------------------------------------------------------------ model


@dataclass
class Npc:
    id: str
    name: str
    given: str
    gender: str
    trade: str
    haunts: list[str]
    role: str = "open"  # open | settled | dies | trivia
    family: int | None = None
    died: int | None = None  # session of death


@dataclass
class Pc:
    id: str
    name: str
    handle: str
    klass: str
    description: str
    alias: str


@dataclass
class ThreadPlan:
    id: str
    kind: str
    npc: str  # the NPC party the probes are about
    parties: list[str]
    terms: str
    opened: int
    visibility: str = "public"
    fate: str = "open"  # open | settled | broken
    closed: int | None = None
    via_history: bool = False
    close_entry: Entry | None = None
    open_entry: Entry | None = None


@dataclass
class Entry:
    """One ``[[history]]`` entry, and what the generator made it for (``tag``: never written to the file)."""

    session: int
    summary: str
    tag: str  # trivia | notable | private | open | settle | death | feud | move | reminder
    witnesses: list[str] = field(default_factory=list)
    visibility: str = "public"
    changes: list[dict[str, Any]] = field(default_factory=list)
    event: str | None = None
    participants: list[str] = field(default_factory=list)
    place: str | None = None
    thread: str | None = None
    id: str = ""

    def table(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "session": self.session, "summary": self.summary}
        if self.event is not None:
            out["event"] = self.event
            out["participants"] = self.participants
            if self.place is not None:
                out["place"] = self.place
            if self.thread is not None:
                out["thread"] = self.thread
        if self.witnesses:
            out["witnesses"] = self.witnesses
        if self.visibility != "public":
            out["visibility"] = self.visibility
        if self.changes:
            out["changes"] = self.changes
        return out


@dataclass
class Campaign:
    """A generated campaign: the scenario as TOML-ready data and its probes."""

    seed: int
    sessions: int
    scenario: dict[str, Any]
    probes: list[dict[str, Any]]
    stats: dict[str, int]


# ------------------------------------------------------------------------------------------------ helpers


def _slug(text: str) -> str:
    out = "".join(c if c.isalnum() else "-" for c in text.lower())
    return "-".join(p for p in out.split("-") if p)


def _at(name: str) -> str:
    """A place name inside a sentence: ``The Salt Market`` -> ``the Salt Market``."""
    return "the " + name[4:] if name.startswith("The ") else name


def _opened_here(e: Entry) -> str | None:
    """The thread an entry opens (an ``open_thread`` change), if any."""
    return next((str(c["id"]) for c in e.changes if c.get("kind") == "open_thread"), None)


def _names_thread(e: Entry) -> set[str]:
    """The threads an entry speaks of: its ``thread`` key and the threads its changes move."""
    named = {str(c["thread"]) for c in e.changes if c.get("kind") == "thread_transition"}
    return named | ({e.thread} if e.thread else set())


def _opened_first(day: list[Entry]) -> list[Entry]:
    """A shuffled session's entries with each thread's opening moved just before the first entry of that
    session that speaks of the thread (a reminder drawn in the session the thread opens, e.g. a private
    matter's confession, must not come before the thread exists). Every other entry keeps its place, so a
    session with no such pair is returned as it was."""
    opening = {tid: e for e in day if (tid := _opened_here(e)) is not None}
    out: list[Entry] = []
    placed: set[int] = set()
    for e in day:
        if id(e) in placed:
            continue
        for tid in sorted(_names_thread(e)):
            first = opening.get(tid)
            if first is not None and first is not e and id(first) not in placed:
                out.append(first)
                placed.add(id(first))
        out.append(e)
        placed.add(id(e))
    return out


class _Gen:
    def __init__(self, seed: int, sessions: int) -> None:
        if sessions < 8:
            raise ValueError("a campaign needs at least 8 sessions")
        self.rng = random.Random(seed)
        self.seed = seed
        self.S = sessions
        self.entries: list[Entry] = []
        self.by_session: dict[int, list[Entry]] = {s: [] for s in range(1, sessions + 1)}
        self.thread_seq: dict[int, int] = {}
        self.relationships: list[dict[str, Any]] = []
        self.edges_of: dict[str, list[tuple[str, str]]] = {}  # npc -> [(other, edge kind)]

    # -- the world ------------------------------------------------------------------------------------------
    def sess(self, lo: float, hi: float) -> int:
        """A session between fractions ``lo`` and ``hi`` of the campaign."""
        a = 1 + round(lo * (self.S - 1))
        b = max(a, 1 + round(hi * (self.S - 1)))
        return self.rng.randint(a, b)

    def world(self) -> None:
        rng = self.rng
        self.town = rng.choice(TOWNS)
        picked = rng.sample(LOCATIONS, N_LOCATIONS)
        self.locs = [f"loc-{slug}" for slug, *_ in picked]
        self.loc_name = {f"loc-{slug}": name for slug, name, *_ in picked}
        self.loc_rows = []
        order = list(self.locs)
        exits: dict[str, list[str]] = {loc: [] for loc in order}
        for i, loc in enumerate(order):  # a ring, plus a few short cuts, both ways
            nxt = order[(i + 1) % len(order)]
            exits[loc].append(nxt)
            exits[nxt].append(loc)
        for _ in range(4):
            a, b = rng.sample(order, 2)
            if b not in exits[a]:
                exits[a].append(b)
                exits[b].append(a)
        for (_, name, aliases, desc), loc in zip(picked, self.locs, strict=True):
            self.loc_rows.append(
                {"id": loc, "name": name, "aliases": list(aliases), "description": desc, "exits": exits[loc]}
            )
        # Busy places draw more small talk than quiet ones.
        self.loc_weight = {loc: rng.choice((1, 2, 3, 5)) for loc in self.locs}

        pcs = rng.sample(PC_POOL, 4)
        handles = rng.sample(HANDLES, 4)
        self.pcs = [
            Pc(f"pc-{_slug(name)}", name, handle, klass, desc, name.removeprefix("Brother ").split()[0])
            for (name, klass, desc), handle in zip(pcs, handles, strict=True)
        ]

        females, males, families = list(FEMALE), list(MALE), list(FAMILY_NAMES)
        rng.shuffle(females)
        rng.shuffle(males)
        rng.shuffle(families)
        trades = list(TRADES)
        rng.shuffle(trades)
        self.npcs: list[Npc] = []
        self.family_members: list[list[str]] = []

        def new_npc(family_name: str, family: int | None) -> Npc:
            gender = rng.choice("fm")
            given = (females if gender == "f" else males).pop()
            name = f"{given} {family_name}"
            home = rng.choices(self.locs, weights=[self.loc_weight[x] for x in self.locs])[0]
            haunts = [home, *[x for x in rng.sample(self.locs, 2) if x != home][:1]]
            npc = Npc(f"npc-{_slug(name)}", name, given, gender, trades[len(self.npcs) % len(trades)], haunts)
            npc.family = family
            self.npcs.append(npc)
            return npc

        for f, size in enumerate(FAMILY_SIZES):
            fam = families.pop()
            self.family_members.append([new_npc(fam, f).id for _ in range(size)])
        for _ in range(N_SINGLES):
            new_npc(families.pop(), None)
        self.npc = {n.id: n for n in self.npcs}

    def edge(self, source: str, target: str, kind: str, attitude: int, reason: str) -> None:
        self.relationships.append(
            {"source": source, "target": target, "edge_kind": kind, "attitude": attitude, "reason": reason}
        )
        self.edges_of.setdefault(target, []).append((source, kind))  # source is target's <kind>

    def kin(self, a: str, b: str, rel: str) -> None:
        """Edges both ways: ``a`` is ``b``'s <rel>, and ``b`` is ``a``'s inverse."""
        na, nb = self.npc[a], self.npc[b]
        warm = self.rng.random() < 0.85
        for x, y, r in ((na, nb, rel), (nb, na, INVERSE[rel])):
            word = KIN_WORDS[(r, x.gender)]
            reason = f"{x.given} is {y.given}'s {word}" + ("" if warm else "; they have not spoken in years")
            self.edge(
                x.id, y.id, word, self.rng.randint(40, 90) if warm else self.rng.randint(-40, -10), reason
            )

    def roles(self) -> None:
        rng = self.rng
        for members in self.family_members:
            head, rest = members[0], members[1:]
            shape = rng.random()
            if len(members) >= 3 and shape < 0.5:
                self.kin(head, rest[0], "spouse")
                for child in rest[1:]:
                    self.kin(head, child, "parent")
                    self.kin(rest[0], child, "parent")
            else:
                rel = "parent" if shape < 0.75 or len(members) == 2 else "auncle"
                if len(members) == 2 and rng.random() < 0.5:
                    rel = "sibling"
                for child in rest:
                    self.kin(head, child, rel)
            kids = rest[1:] if len(members) >= 3 and shape < 0.5 else rest
            if len(kids) >= 2 and len(members) != 2:
                for i in range(len(kids)):
                    for j in range(i + 1, len(kids)):
                        self.kin(kids[i], kids[j], "sibling")
        singles = [n for n in self.npcs if n.family is None]
        family_npcs = [n for n in self.npcs if n.family is not None]
        rng.shuffle(singles)
        for n in singles[:N_TRIVIA_ONLY]:
            n.role = "trivia"
        rest_singles = singles[N_TRIVIA_ONLY:]
        # Deaths: four from families (at most one per family), two singles with a sworn ally.
        dead_fams = rng.sample(range(len(self.family_members)), 4)
        for f in dead_fams:
            self.npc[rng.choice(self.family_members[f])].role = "dies"
        for n in rest_singles[:2]:
            n.role = "dies"
        ally_pool = [n for n in rest_singles[2:]] + [n for n in family_npcs if n.role != "dies"]
        rng.shuffle(ally_pool)
        pairs = [(rest_singles[0], ally_pool[0]), (rest_singles[1], ally_pool[1])]
        others = ally_pool[2:]
        while len(pairs) < 6 and len(others) >= 2:
            a, b = others.pop(), others.pop()
            if a.family is not None and a.family == b.family:
                continue
            pairs.append((a, b))
        for a, b in pairs:
            why = rng.choice(
                (
                    "since the siege of the north gate",
                    "over their fathers' graves",
                    "after the flood year",
                    "on the night the rope shed burned",
                )
            )
            self.edge(
                a.id, b.id, "ally", rng.randint(60, 95), f"{a.given} and {b.given} are sworn allies {why}"
            )
            self.edge(
                b.id, a.id, "ally", rng.randint(60, 95), f"{b.given} and {a.given} are sworn allies {why}"
            )
        free = [n for n in self.npcs if n.role == "open"]
        rng.shuffle(free)
        for n in free[:N_SETTLED_NPCS]:
            n.role = "settled"
        # Factions (an edge to the leader) and employers; neither is an obligation.
        leaders = [n for n in self.npcs if n.role == "open"][:3]
        for leader, faction in zip(leaders, rng.sample(FACTIONS, 3), strict=True):
            pool = [n for n in self.npcs if n.role != "trivia" and n is not leader]
            for member in rng.sample(pool, 3):
                self.edge(
                    member.id,
                    leader.id,
                    "member",
                    rng.randint(20, 70),
                    f"{member.given} belongs to {faction}, which {leader.given} leads",
                )
        employers = [n for n in self.npcs if n.role in ("open", "settled") and n not in leaders][:4]
        for boss in employers:
            for hand in rng.sample([n for n in self.npcs if n is not boss], 2):
                self.edge(
                    hand.id,
                    boss.id,
                    "employer",
                    rng.randint(-10, 60),
                    f"{hand.given} works for {boss.given} the {boss.trade.replace('-', ' ')}",
                )

    # -- threads, deaths, feuds -----------------------------------------------------------------------------
    def thread_id(self, kind: str, session: int) -> str:
        self.thread_seq[session] = self.thread_seq.get(session, 0) + 1
        prefix = "favor" if kind == "favour" else kind
        return f"{prefix}-{session:04d}-{self.thread_seq[session]:02d}"

    def fill(self, form: str, **names: str) -> str:
        slots = {
            **{k: self.rng.choice(v) for k, v in THREAD_SLOTS.items()},
            **{k: self.rng.choice(v) for k, v in SLOTS.items()},
        }
        slots["amount"] = str(self.rng.choice((15, 20, 40, 60, 75, 120, 150, 200, 300)))
        slots["repay"] = self.rng.choice(REPAYS)
        return form.format(**{**slots, **names})

    def who(self, ref: str) -> str:
        return self.npc[ref].name if ref in self.npc else next(p.name for p in self.pcs if p.id == ref)

    def given(self, ref: str) -> str:
        return self.npc[ref].given if ref in self.npc else next(p.alias for p in self.pcs if p.id == ref)

    def threads(self) -> None:
        rng = self.rng
        self.plans: list[ThreadPlan] = []
        by_role = {r: [n for n in self.npcs if n.role == r] for r in ("open", "settled", "dies")}

        def plan(kind: str, npc: Npc, other: str, opened: int, vis: str = "public") -> ThreadPlan:
            tid = self.thread_id(kind, opened)
            place = _at(self.loc_name[npc.haunts[0]])
            if other.startswith("npc-"):
                terms = self.fill(rng.choice(NPC_DEBT_FORMS), n=self.who(other), m=npc.name)
            elif vis != "public":
                terms = self.fill(
                    PRIVATE_THREAD_FORMS[kind],
                    n=npc.name,
                    p=self.who(other),
                    secret=rng.choice(PRIVATE_SECRETS),
                )
            else:
                terms = self.fill(
                    rng.choice(THREAD_FORMS[kind]), n=npc.name, n1=npc.given, p=self.who(other), place=place
                )
            t = ThreadPlan(
                tid, kind, npc.id, [npc.id, other], terms, opened, vis, via_history=rng.random() < 0.4
            )
            self.plans.append(t)
            return t

        pc_ids = [p.id for p in self.pcs]
        # Settled: every matter of these NPCs ends settled.
        settled_npcs = by_role["settled"]
        for i in range(9):
            npc = settled_npcs[i % len(settled_npcs)]
            t = plan(
                rng.choice(("favour", "debt", "oath", "bounty", "quest")),
                npc,
                rng.choice(pc_ids),
                self.sess(0.0, 0.5),
            )
            t.fate, t.closed = "settled", min(self.S, t.opened + rng.randint(2, max(2, self.S // 3)))
        # Open matters of NPCs who will die.
        for npc in by_role["dies"]:
            t = plan(rng.choice(OBLIGATION_KINDS), npc, rng.choice(pc_ids), self.sess(0.0, 0.45))
            npc.died = rng.randint(min(self.S - 1, t.opened + 2), max(t.opened + 2, round(0.85 * self.S)))
        # Private matters, one or two per player.
        open_npcs = by_role["open"]
        for i in range(6):
            pc = self.pcs[i % 4]
            npc = open_npcs[(i * 2 + 1) % len(open_npcs)]
            plan(
                rng.choice(("oath", "favour", "debt")), npc, pc.id, self.sess(0.0, 0.6), f"player:{pc.handle}"
            )
        # A broken oath and an expired favour: closed, but not settled.
        for kind in ("oath", "favour"):
            t = plan(kind, rng.choice(open_npcs), rng.choice(pc_ids), self.sess(0.0, 0.4))
            t.fate, t.closed = "broken", min(self.S, t.opened + rng.randint(3, 8))
        # Open matters: mostly old obligations, a few NPC-to-NPC debts, quests and prophecies.
        kinds = ["favour", "debt", "oath", "bounty"] * 3 + [
            "debt",
            "debt",
            "debt",
            "quest",
            "quest",
            "prophecy",
        ]
        for j, kind in enumerate(kinds):
            npc = open_npcs[j % len(open_npcs)]
            if j >= 12 and j < 15:  # NPC-to-NPC debts
                other = rng.choice(
                    [n.id for n in open_npcs + settled_npcs if n is not npc and n.role == "open"]
                )
            else:
                other = rng.choice(pc_ids)
            plan(kind, npc, other, self.sess(0.0, 0.4) if j < 12 else self.sess(0.0, 0.9))
        # Private threads name the player who may see them; their parties are just that PC and the NPC.
        for t in self.plans:
            if t.via_history:
                t.open_entry = self.add(
                    t.opened,
                    Entry(
                        t.opened,
                        t.terms,
                        "open",
                        witnesses=list(t.parties),
                        visibility=t.visibility,
                        changes=[
                            {
                                "kind": "open_thread",
                                "id": t.id,
                                "thread_kind": t.kind,
                                "terms": t.terms,
                                "parties": t.parties,
                                "tags": [t.kind],
                            }
                        ],
                    ),
                )
            if t.fate != "open" and t.closed is not None:
                t.close_entry = self.add(t.closed, self.closing(t))

    def closing(self, t: ThreadPlan) -> Entry:
        npc, other = self.npc[t.npc], t.parties[1]
        if t.fate == "broken":
            summary = f"{self.who(other)} breaks faith with {npc.name}; what was promised will never be done."
            reason = "broken"
        elif other.startswith("npc-"):
            summary = self.fill(self.rng.choice(NPC_SETTLE_FORMS), n=self.who(other), m=npc.name)
            reason = "paid"
        else:
            summary = self.fill(
                self.rng.choice(SETTLE_FORMS[t.kind]), n=npc.name, n1=npc.given, p=self.who(other)
            )
            reason = {
                "favour": "favour repaid",
                "debt": "paid in full",
                "oath": "oath fulfilled",
                "bounty": "bounty paid",
                "quest": "done",
                "prophecy": "fulfilled",
            }[t.kind]
        status = "broken" if t.fate == "broken" else "settled"
        return Entry(
            t.closed or t.opened,
            summary,
            "settle",
            witnesses=list(t.parties),
            visibility=t.visibility,
            changes=[{"kind": "thread_transition", "thread": t.id, "status": status, "reason": reason}],
        )

    def deaths_and_feuds(self) -> None:
        rng = self.rng
        self.death_entry: dict[str, Entry] = {}
        for npc in self.npcs:
            if npc.role == "dies" and npc.died is not None:
                place = _at(self.loc_name[npc.haunts[0]])
                e = Entry(
                    npc.died,
                    rng.choice(DEATH_FORMS).format(n=npc.name, place=place),
                    "death",
                    witnesses=[self.pcs[rng.randrange(4)].id],
                    changes=[{"kind": "set_alive", "entity": npc.id, "alive": False}],
                )
                self.death_entry[npc.id] = self.add(npc.died, e)
        self.feuds: list[tuple[str, str, Entry]] = []
        opens = [n for n in self.npcs if n.role == "open"]
        rng.shuffle(opens)
        pairs = [
            (opens[0].id, self.pcs[0].id),
            (opens[1].id, self.pcs[2].id),
            (opens[2].id, opens[3].id),
            (opens[4].id, opens[5].id),
        ]
        for a, b in pairs:
            cause = rng.choice(FEUD_CAUSES)
            place = _at(self.loc_name[self.npc[a].haunts[0]])
            s = self.sess(0.05, 0.4)
            summary = (
                f"{self.who(a)} and {self.who(b)} come to blows at {place} over {cause}; "
                "from that night they are enemies."
            )
            e = Entry(
                s,
                summary,
                "feud",
                witnesses=[a, b],
                changes=[
                    {
                        "kind": "set_edge",
                        "source": a,
                        "target": b,
                        "edge_kind": "enemy",
                        "attitude": -rng.randint(60, 95),
                        "reason": f"feud over {cause}",
                    },
                    {
                        "kind": "set_edge",
                        "source": b,
                        "target": a,
                        "edge_kind": "enemy",
                        "attitude": -rng.randint(60, 95),
                        "reason": f"feud over {cause}",
                    },
                ],
            )
            self.feuds.append((a, b, self.add(s, e)))

    # -- the history of play --------------------------------------------------------------------------------
    def add(self, session: int, e: Entry) -> Entry:
        e.session = session
        self.by_session[session].append(e)
        return e

    def alive(self, ref: str, session: int) -> bool:
        n = self.npc.get(ref)
        return n is None or n.died is None or session < n.died

    def at_place(self, loc: str, session: int, exclude: tuple[str, ...] = ()) -> list[str]:
        return [
            n.id for n in self.npcs if loc in n.haunts and self.alive(n.id, session) and n.id not in exclude
        ]

    def narrative(
        self,
        session: int,
        kind: str,
        a: str,
        b: str | None,
        place: str,
        tag: str,
        thread: str | None = None,
        visibility: str = "public",
        form: str | None = None,
    ) -> Entry:
        rng = self.rng
        names = {
            "a": self.who(a),
            "b": self.who(b) if b else "",
            "b1": self.given(b) if b else "",
            "place": _at(self.loc_name[place]),
            "faction": rng.choice(FACTIONS),
            "topic": rng.choice(TOPICS),
            "doing": rng.choice(DOINGS),
        }
        if form is None:
            form = rng.choice(
                TALK_FORMS if kind == "talk" else SIGHT_FORMS if kind == "sighting" else NOTABLE_FORMS[kind]
            )
        summary = self.fill(form, **names)
        participants = [a] + ([b] if b else [])
        bystanders = [x for x in self.at_place(place, session, tuple(participants)) if rng.random() < 0.25][
            :2
        ]
        return self.add(
            session,
            Entry(
                session,
                summary,
                tag,
                witnesses=bystanders,
                visibility=visibility,
                event=kind,
                participants=participants,
                place=place,
                thread=thread,
            ),
        )

    def history(self) -> None:
        rng = self.rng
        S = self.S
        trivia_npcs = [n.id for n in self.npcs if n.role == "trivia"]
        others = [n.id for n in self.npcs if n.role != "trivia"]
        pc_ids = [p.id for p in self.pcs]
        # Pairs of people with nothing permanent between them: a few notable events each, then newer small
        # talk (the "trivia only" probes ask for their last notable event).
        self.trivia_pairs: list[tuple[str, str]] = []
        for i in range(len(trivia_npcs)):
            for j in range(i + 1, len(trivia_npcs)):
                self.trivia_pairs.append((trivia_npcs[i], trivia_npcs[j]))
        rng.shuffle(self.trivia_pairs)
        self.trivia_pairs = self.trivia_pairs[:12]
        for a, b in self.trivia_pairs:
            for _ in range(rng.randint(1, 3)):
                s = self.sess(0.05, 0.8)
                x, y = (a, b) if rng.random() < 0.5 else (b, a)
                self.narrative(s, rng.choice(NOTABLE_KINDS), x, y, rng.choice(self.npc[x].haunts), "notable")
            for _ in range(rng.randint(2, 4)):
                s = self.sess(0.85, 1.0)
                self.narrative(s, "talk", a, b, rng.choice(self.npc[a].haunts), "trivia")
        # Reminders of open matters, and what private matters were about (seen by their player only).
        for t in self.plans:
            end = t.closed if t.closed is not None else S + 1
            npc = self.npc[t.npc]
            if t.visibility != "public":
                for _ in range(rng.randint(2, 3)):
                    s = rng.randint(t.opened, min(S, end - 1))
                    if self.alive(t.npc, s):
                        form = rng.choice(PRIVATE_FORMS).replace("{n}", "{a}").replace("{p}", "{b}")
                        self.narrative(
                            s,
                            rng.choice(("confession", "warning", "revelation")),
                            t.npc,
                            t.parties[1],
                            rng.choice(npc.haunts),
                            "private",
                            t.id,
                            t.visibility,
                            form.replace("{secret}", rng.choice(PRIVATE_SECRETS)),
                        )
            elif rng.random() < 0.6 and end - t.opened > 2:
                s = rng.randint(t.opened + 1, min(S, end - 1))
                if self.alive(t.npc, s) and self.alive(t.parties[1], s):
                    form = rng.choice(REMINDER_FORMS[t.kind]).replace("{n}", "{a}").replace("{p}", "{b}")
                    self.narrative(
                        s,
                        REMINDER_EVENT[t.kind],
                        t.npc,
                        t.parties[1],
                        rng.choice(npc.haunts),
                        "reminder",
                        t.id,
                        form=form,
                    )
        fixed = sum(len(v) for v in self.by_session.values())
        notable_per_session = 7
        moves_per_session = 3
        trivia_total = max(0, EVENTS_PER_SESSION * S - fixed - (notable_per_session + moves_per_session) * S)
        for s in range(1, S + 1):
            for _ in range(notable_per_session):
                a = rng.choice([x for x in others if self.alive(x, s)])
                if rng.random() < 0.5:
                    b = rng.choice(pc_ids)
                else:
                    b = rng.choice([x for x in others if x != a and self.alive(x, s)])
                self.narrative(s, rng.choice(NOTABLE_KINDS), a, b, rng.choice(self.npc[a].haunts), "notable")
            for _ in range(moves_per_session):
                a = rng.choice([n.id for n in self.npcs if self.alive(n.id, s)])
                loc = rng.choice(self.npc[a].haunts)
                form = rng.choice(MOVE_FORMS)
                self.add(
                    s,
                    Entry(
                        s,
                        form.format(a=self.who(a), place=_at(self.loc_name[loc])),
                        "move",
                        changes=[{"kind": "move_entity", "entity": a, "location": loc}],
                    ),
                )
            n_trivia = trivia_total // S + (1 if s <= trivia_total % S else 0)
            for _ in range(n_trivia):
                lively = [x for x in self.locs if self.at_place(x, s)]
                loc = rng.choices(lively, weights=[self.loc_weight[x] for x in lively])[0]
                here = self.at_place(loc, s)
                a = rng.choice(here)
                if rng.random() < 0.45:
                    self.narrative(s, "sighting", a, None, loc, "trivia")
                else:
                    pool = [x for x in here if x != a]
                    b = rng.choice(pc_ids) if rng.random() < 0.2 or not pool else rng.choice(pool)
                    self.narrative(s, "talk", a, b, loc, "trivia")
        for s in range(1, S + 1):
            day = self.by_session[s]
            rng.shuffle(day)
            self.entries.extend(_opened_first(day))
        for i, e in enumerate(self.entries, start=1):
            e.id = f"h-{i:04d}"

    # -- the file -------------------------------------------------------------------------------------------
    def scenario(self) -> dict[str, Any]:
        rng = self.rng
        campaign = {
            "id": f"gen-{self.seed}",
            "name": rng.choice(CAMPAIGN_TITLES).format(t=self.town),
            "description": f"A river-mouth town, {self.town}, where everyone owes someone something.",
            "current_session": self.S + 1,
            "starting_location": self.locs[0],
        }
        pcs = []
        for p in self.pcs:
            sheet = CLASS_SHEETS[p.klass]
            pcs.append(
                {
                    "id": p.id,
                    "name": p.name,
                    "aliases": [p.alias],
                    "description": p.description,
                    "owner": f"player:{p.handle}",
                    "class": p.klass,
                    "level": 5,
                    "abilities": sheet["abilities"],
                    "skills": sheet["skills"],
                    "ac": sheet["ac"],
                    "hp": sheet["hp"],
                    "weapons": sheet["weapons"],
                    "location": self.locs[0],
                }
            )
        npcs = []
        for n in self.npcs:
            trade = n.trade.replace("-", " ")
            bestiary = "guard" if "watch" in trade else "commoner"
            npcs.append(
                {
                    "id": n.id,
                    "name": n.name,
                    "aliases": [n.given, f"the {trade}"],
                    "kind": "npc",
                    "bestiary": bestiary,
                    "location": n.haunts[0],
                    "persona": f"The {trade} of {self.loc_name[n.haunts[0]]}.",
                    "speech": rng.choice(
                        (
                            "Plain and short.",
                            "Talkative, full of local sayings.",
                            "Careful, answers a question with a question.",
                        )
                    ),
                }
            )
        threads = []
        for t in self.plans:
            if t.via_history:
                continue
            row: dict[str, Any] = {
                "id": t.id,
                "thread_kind": t.kind,
                "terms": t.terms,
                "parties": t.parties,
                "tags": [t.kind],
                "session": t.opened,
            }
            if t.visibility != "public":
                row["visibility"] = t.visibility
            threads.append(row)
        return {
            "campaign": campaign,
            "locations": self.loc_rows,
            "pcs": pcs,
            "npcs": npcs,
            "relationships": self.relationships,
            "threads": threads,
            "history": [e.table() for e in self.entries],
        }

    # -- probes ---------------------------------------------------------------------------------------------
    def probes(self) -> list[dict[str, Any]]:
        rng = self.rng
        S = self.S
        secrets: list[tuple[str, str]] = [
            (t.id, t.visibility) for t in self.plans if t.visibility != "public"
        ]
        secrets += [(e.id, e.visibility) for e in self.entries if e.visibility != "public"]

        def hidden_from(viewer: str) -> list[str]:
            if viewer == "gm":
                return []
            return [ref for ref, vis in secrets if vis.startswith("player:") and vis != viewer]

        def viewer() -> str:
            r = rng.random()
            return "party" if r < 0.6 else "gm" if r < 0.8 else f"player:{rng.choice(self.pcs).handle}"

        def company(
            main: list[str], k: int, pool_roles: tuple[str, ...] = ("open", "settled", "trivia")
        ) -> list[str]:
            pool = [n.id for n in self.npcs if n.role in pool_roles and n.died is None and n.id not in main]
            return sorted(main + rng.sample(pool, k))

        small = [e for e in self.entries if e.tag in ("trivia", "move")]

        def newer_small(place: str, since: int, who: str | None = None) -> int:
            return sum(
                1
                for e in small
                if e.session > since
                and (e.place == place or (e.changes and e.changes[0].get("location") == place))
                and (
                    who is None or who in e.participants or (e.changes and e.changes[0].get("entity") == who)
                )
            )

        out: list[dict[str, Any]] = []

        def probe(
            kind: str,
            location: str,
            present: list[str],
            view: str,
            decisive: list[str],
            why: str,
            **more: Any,
        ) -> None:
            n = sum(1 for p in out if p["kind"] == kind) + 1
            out.append(
                {
                    "id": f"{kind}-{n:02d}",
                    "kind": kind,
                    "location": location,
                    "present": present,
                    "viewer": view,
                    "decisive": decisive,
                    "must_not": hidden_from(view),
                    "why": why,
                    **more,
                }
            )

        # Old open obligations (and feuds), in a quiet place and then at the party's busiest haunt.
        matters: list[tuple[str, list[str], int, str]] = []  # (npc, decisive, opened, words)
        for t in self.plans:
            if (
                t.fate == "open"
                and t.visibility == "public"
                and t.kind in OBLIGATION_KINDS
                and self.npc[t.npc].role == "open"
                and t.opened <= 1 + round(0.45 * (S - 1))
            ):
                matters.append((t.npc, [t.id], t.opened, f"the open {t.kind} {t.id}"))
        for a, b, e in self.feuds:
            refs = [e.id, f"{a}>{b}:enemy", f"{b}>{a}:enemy"]
            matters.append((a, refs, e.session, f"the feud between {a} and {b} ({e.id})"))
        rng.shuffle(matters)
        for i in range(PROBES_PER_KIND):
            npc, decisive, opened, words = matters[i % len(matters)]
            quiet = min(self.locs, key=lambda loc: (newer_small(loc, opened, npc), rng.random()))
            probe(
                "old_open",
                quiet,
                company([npc], rng.randint(0, 2)),
                viewer(),
                decisive,
                f"{words}, opened in session {opened}, with {npc} present",
                newer_small_at_place=newer_small(quiet, opened),
            )
        for i in range(PROBES_PER_KIND):
            npc, decisive, opened, words = matters[(i + 3) % len(matters)]
            busy = max(self.npc[npc].haunts, key=lambda loc: newer_small(loc, opened, npc))
            probe(
                "crowded",
                busy,
                company([npc], rng.randint(0, 1)),
                viewer(),
                decisive,
                f"{words}, opened in session {opened}, under newer small events at the place",
                newer_small_at_place=newer_small(busy, opened),
                newer_small_with_party=newer_small(busy, opened, npc),
            )
        # Settled: someone whose every matter is settled; the settlement is what matters now.
        settled = [n for n in self.npcs if n.role == "settled" and any(t.npc == n.id for t in self.plans)]
        for i in range(PROBES_PER_KIND):
            npc = settled[i % len(settled)]
            mine = [t for t in self.plans if t.npc == npc.id and t.close_entry is not None]
            ends = [t.close_entry.id for t in mine if t.close_entry is not None]
            loc = rng.choice([*npc.haunts, rng.choice(self.locs)])
            # The settlement entry, or the thread record itself (it renders as settled, with the session).
            probe(
                "settled",
                loc,
                company([npc.id], rng.randint(0, 1), ("trivia",)),
                viewer(),
                ends + [t.id for t in mine],
                f"{npc.id}'s matters are all settled: show the settlement ({', '.join(ends)}) or the settled "
                f"thread ({', '.join(t.id for t in mine)}), not an open demand",
            )
        # Dead party: an open matter of a dead NPC, with their kin or sworn ally in the scene.
        dead = [n for n in self.npcs if n.role == "dies"]
        for i in range(PROBES_PER_KIND):
            npc = dead[i % len(dead)]
            ties = [(o, k) for o, k in self.edges_of.get(npc.id, []) if k != "member" and k != "employer"]
            ties = [(o, k) for o, k in ties if o in self.npc and self.npc[o].died is None]
            ties = list({o: (o, k) for o, k in ties}.values())  # one tie per person
            other, tie = ties[(i // len(dead)) % len(ties)]
            opens = [t.id for t in self.plans if t.npc == npc.id and t.fate == "open"]
            loc = rng.choice(self.npc[other].haunts)
            probe(
                "dead_party",
                loc,
                company([other], rng.randint(0, 1), ("trivia",)),
                viewer(),
                opens,
                f"{npc.id} died in session {npc.died} ({self.death_entry[npc.id].id}) leaving "
                f"{', '.join(opens)} open; their {tie} {other} is present",
                dead=npc.id,
                tie=tie,
            )
        # Trivia only: the last notable event between those present, under newer small talk.
        notable = [e for e in self.entries if e.tag == "notable" and e.visibility == "public"]
        for i in range(PROBES_PER_KIND):
            a, b = self.trivia_pairs[i % len(self.trivia_pairs)]
            present = [a, b]
            if rng.random() < 0.3:
                third = [n.id for n in self.npcs if n.role == "trivia" and n.id not in present]
                present.append(rng.choice(third))
            present.sort()
            last = [e for e in notable if sum(1 for p in e.participants if p in present) >= 2][-1]
            loc = last.place if rng.random() < 0.5 and last.place else rng.choice(self.npc[a].haunts)
            probe(
                "trivia_only",
                loc,
                present,
                rng.choice(("party", "party", "gm")),
                [last.id],
                f"nothing permanent between {', '.join(present)}: their last notable event is {last.id} "
                f"({last.event}, session {last.session})",
            )
        # Secret scope: a matter private to one player, seen by them and by another player.
        private = [t for t in self.plans if t.visibility != "public"]
        for i in range(PROBES_PER_KIND):
            t = private[i % len(private)]
            owner = t.visibility
            other = f"player:{rng.choice([p.handle for p in self.pcs if f'player:{p.handle}' != owner])}"
            secret_ids = [t.id] + [e.id for e in self.entries if e.thread == t.id or e is t.open_entry]
            loc = rng.choice(self.npc[t.npc].haunts)
            probe(
                "secret",
                loc,
                company([t.npc], rng.randint(0, 1)),
                owner,
                [t.id],
                f"{t.id} is private to {owner}: in for them, out for {other}",
                other_views=[
                    {
                        "viewer": other,
                        "decisive": [],
                        "must_not": sorted(set(hidden_from(other)) | set(secret_ids)),
                    }
                ],
            )
        return out

    def stats(self) -> dict[str, int]:
        tags: dict[str, int] = {}
        for e in self.entries:
            tags[e.tag] = tags.get(e.tag, 0) + 1
        return {
            "npcs": len(self.npcs),
            "edges": len(self.relationships),
            "threads": len(self.plans),
            "history": len(self.entries),
            "dead": sum(1 for n in self.npcs if n.died),
            **{f"history_{k}": v for k, v in sorted(tags.items())},
        }


def generate(seed: int, sessions: int = 50) -> Campaign:
    """Generate the campaign and probes of ``seed`` (deterministic for a seed and session count)."""
    g = _Gen(seed, sessions)
    g.world()
    g.roles()
    g.threads()
    g.deaths_and_feuds()
    g.history()
    scenario = g.scenario()
    return Campaign(seed, sessions, scenario, g.probes(), g.stats())


# ------------------------------------------------------------------------------------------------ output


def strip_narrative(scenario: dict[str, Any]) -> dict[str, Any]:
    """The scenario without the narrative keys (``event``, ``participants``, ``place``, ``thread``) on
    history entries: what a loader that does not know them yet can read (summary and witnesses kept)."""
    history = [{k: v for k, v in e.items() if k not in NARRATIVE_KEYS} for e in scenario["history"]]
    return {**scenario, "history": history}


def _value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{k} = {_value(x)}" for k, x in v.items()) + " }" if v else "{}"
    if isinstance(v, list | tuple):
        if v and all(isinstance(x, dict) for x in v):
            return "[\n" + "".join(f"  {_value(x)},\n" for x in v) + "]"
        return "[" + ", ".join(_value(x) for x in v) + "]"
    raise TypeError(f"cannot write {type(v).__name__} to TOML")


def to_toml(scenario: dict[str, Any]) -> str:
    """The scenario data as TOML text (tables in a fixed order, keys as given)."""
    lines = [
        f"# Generated by bench/gen_campaign.py ({scenario['campaign']['id']}). See docs/scenario.md.",
        "",
    ]
    lines.append("[campaign]")
    lines += [f"{k} = {_value(v)}" for k, v in scenario["campaign"].items()]
    for section in ("locations", "pcs", "npcs", "relationships", "threads", "history"):
        for row in scenario[section]:
            lines += ["", f"[[{section}]]"]
            lines += [f"{k} = {_value(v)}" for k, v in row.items()]
    return "\n".join(lines) + "\n"


def write(campaign: Campaign, out: Path, *, strip: bool = False) -> tuple[Path, Path]:
    """Write ``campaign-<seed>.toml`` (or ``-stripped``) and ``probes-<seed>.json`` into ``out``."""
    out.mkdir(parents=True, exist_ok=True)
    scenario = strip_narrative(campaign.scenario) if strip else campaign.scenario
    toml_path = out / f"campaign-{campaign.seed}{'-stripped' if strip else ''}.toml"
    toml_path.write_text(to_toml(scenario), encoding="utf-8")
    probes_path = out / f"probes-{campaign.seed}.json"
    doc = {
        "seed": campaign.seed,
        "sessions": campaign.sessions,
        "scenario": toml_path.name,
        "current_session": scenario["campaign"]["current_session"],
        "pcs": [p["id"] for p in scenario["pcs"]],
        "stats": campaign.stats,
        "probes": campaign.probes,
    }
    probes_path.write_text(json.dumps(doc, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return toml_path, probes_path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--sessions", type=int, default=50)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--stripped", action="store_true", help="also write the file without narrative keys")
    args = parser.parse_args(argv)
    campaign = generate(args.seed, args.sessions)
    toml_path, probes_path = write(campaign, args.out)
    if args.stripped:
        write(campaign, args.out, strip=True)
    counts = ", ".join(f"{k} {v}" for k, v in campaign.stats.items())
    print(f"{toml_path} ({counts}); {probes_path} ({len(campaign.probes)} probes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
