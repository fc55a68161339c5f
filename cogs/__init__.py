"""discord.py cogs: parse an interaction, call the table's services, render embeds. Thin: no rules, no SQL."""
