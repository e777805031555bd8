"""Club ladders (seed 002, "Ladder competition rules"): which games count for a ladder, the
table replayed from them with the seed's points, and the graded games of non-members against
the free quotas. Pure: dates and results come in, nothing is read."""
