"""The deterministic d20 rules engine (5e SRD).

Pure: no I/O, no clock, no global random. Every roll takes an explicit ``random.Random``,
so a round resolved twice from the same seed gives byte-identical results.
"""
