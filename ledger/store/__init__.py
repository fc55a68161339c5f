"""The store: the SQL ledger every other room reads, and the only code that writes it.

It owns the tables (:mod:`.models`) and their migrations, engines and sessions (:mod:`.db`), the change
vocabulary (:mod:`.vocabulary`, also the scenario format's ``[[history]]``), applying changes
(:mod:`.writes` over :mod:`.world`), reads through a viewer (:mod:`.reads`, returning :mod:`.records`),
visibility, corrections, and the table's paperwork (:mod:`.campaigns`, :mod:`.rounds`, :mod:`.outbox`,
:mod:`.disputes`, :mod:`.sessions`, each write in a :mod:`.transaction`). It imports only
:mod:`ledger.errors` and :mod:`rules`; nothing here imports another room of the ledger.
"""
