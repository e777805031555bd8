"""Correspondence events by the IECG Rules and Regulations 6.4 (seed 000): days on the
clock, leave, limits, conditional moves, withdrawals, the global time limit, and the rating
run by period (docs/correspondence.md)."""
