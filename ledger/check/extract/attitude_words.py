"""Word classes for attitude by behaviour (:mod:`.valence`): what the valence lexicon rates but a narration
uses for something other than an attitude toward the other creature.

A reproof between kin or lovers (:data:`REPROOF`), one's own mood (:data:`MOOD`, :func:`mood`), knowing
someone (:data:`KNOWING`), and verbs of feeling that aim at a person only as their direct object
(:data:`FEELING`).
Closed classes matched by lemma (lemminflect, through :mod:`.predicates`). Imports :mod:`.predicates` only.
"""

from __future__ import annotations

from ledger.check.extract.predicates import any_lemma, verb_lemma

# Reproof and banter: to scold, chide, tease or mock someone is friction inside a bond (an aunt scolding the
# boy who walks on his wound, a lover teasing), not an attitude toward them; the lexicon rates them hostile
# ("scold" -1.7, "mock" -1.8), so neither they nor the manner they are done in count ("scolds him sharply")
REPROOF = frozenset(
    {
        "scold",
        "chide",
        "tease",
        "mock",
        "nag",
        "rebuke",
        "reprove",
        "reproach",
        "admonish",
        "berate",
        "upbraid",
    }
    | {
        "lecture",
        "tut",
        "tsk",
        "rib",
        "josh",
        "needle",
        "rag",
        "kid",
        "reprimand",
        "grumble",
        "fuss",
        "scolding",
    }
)
# One's own mood: sorrow, fear, worry, grief, weariness, guilt, pain or loss are rated negative by the lexicon
# ("sob" -2.5, "mourn" -2.4, "worriedly" -2.0) but tell how the actor feels, not hostility toward the other
# ("sobs against his chest", "mourns with her", "watches him sadly"); matched by lemma, an adverb by its
# adjective ("sadly" -> "sad"). To hurt or wound someone is not a mood and still counts.
MOOD = frozenset(
    {
        "sad",
        "sadness",
        "sorrow",
        "sorrowful",
        "grief",
        "grieve",
        "mourn",
        "weep",
        "cry",
        "sob",
        "tear",
        "tearful",
    }
    | {
        "worry",
        "worried",
        "anxious",
        "anxiety",
        "nervous",
        "fear",
        "fearful",
        "afraid",
        "scared",
        "frightened",
    }
    | {"terrified", "tremble", "shiver", "miserable", "misery", "unhappy", "wistful", "forlorn", "lonely"}
    | {
        "helpless",
        "desperate",
        "despair",
        "grave",
        "grim",
        "sombre",
        "somber",
        "solemn",
        "sick",
        "ill",
        "pale",
    }
    | {"weary", "tired", "exhausted", "guilty", "guilt", "ashamed", "shame", "sorry", "regret", "remorse"}
    | {"pity", "pain", "lost", "lose", "loss", "uneasy", "troubled", "concern", "concerned", "distress"}
    | {"distressed", "heartbroken", "broken", "dying", "gloomy", "glum", "mournful", "anguish", "anguished"}
)


# longing for someone is no hostility, though the lexicon rates "miss" as a loss
LONGING = frozenset({"miss", "long", "yearn", "pine", "ache"})
# degree adverbs: they only strengthen the word they go with ("misses him terribly", "loves her madly")
INTENSIFIERS = frozenset(
    {
        "terribly",
        "awfully",
        "dreadfully",
        "horribly",
        "badly",
        "frightfully",
        "painfully",
        "achingly",
        "madly",
    }
    | {"wildly", "deeply", "utterly", "desperately", "hopelessly", "sorely"}
)

# Eagerness: an adverb of willingness takes the sign of the act it goes with ("betrays him gladly" is the
# more hostile, "embraces him gladly" the warmer); the lexicon rates them warm ("gladly" +1.4), which would
# soften a betrayal done with relish into nothing
WILLING = frozenset(
    {"gladly", "happily", "eagerly", "willingly", "readily", "gleefully", "cheerfully", "joyfully", "keenly"}
)


def mood(word: str) -> bool:
    """True when ``word`` (or its lemma, or an adverb's adjective) is one of :data:`MOOD` or
    :data:`LONGING`, or a degree adverb (:data:`INTENSIFIERS`)."""
    low = word.lower()
    if low in INTENSIFIERS or (verb_lemma(low) or low) in LONGING:
        return True
    forms = {low, any_lemma(low), verb_lemma(low) or low}
    if low.endswith("ily"):
        forms.add(low[:-3] + "y")  # "wearily", "unhappily"
    if low.endswith("ably"):
        forms.add(low[:-4] + "able")  # "miserably"
    if low.endswith("ly"):
        forms |= {low[:-2], low[:-2] + "e"}  # "sadly", "gravely" -> "grave"
    return bool(forms & MOOD)


# knowing someone is no behaviour toward them ("knows him better than anyone": "better" is no warmth)
KNOWING = frozenset({"know", "understand", "recognise", "recognize"})
# verbs of feeling: they are aimed at a creature only when it is their direct object ("hates Pike", not "hates
# the way Pike talks" nor "hates seeing him hurt")
FEELING = frozenset(
    {"hate", "loathe", "despise", "detest", "abhor", "love", "adore", "like", "resent", "fear", "dread"}
    | {"enjoy", "cherish", "miss", "envy", "pity", "scorn", "disdain", "mind", "regret", "worship", "trust"}
)
