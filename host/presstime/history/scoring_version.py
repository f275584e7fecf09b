"""The version of the scoring that the history's stored results were computed with.

Bump SCORING_VERSION whenever the core's results change (a rule fixed, a column or a tie-break
added, what results.summarize keeps changed): the next time the history is opened, every stored
result is computed again (store.refresh_results), and it says so. Its own small module, so that
reading the history does not load the scoring code just to compare this number.
"""

SCORING_VERSION = 2  # 2: names in NFC in the results (one player however a record wrote the name)
