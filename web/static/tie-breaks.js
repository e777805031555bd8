// Which edition of FIDE C.07 (the Play-Off and Tie-Break Regulations) ranks a tournament, in
// words for the standings pages. An ES module, no build.
// Licence: GPL-3.0-or-later, like the rest of chess-relay.

// `rules` as GET /api/tournaments/{id}/rules gives them, `tournament` as /api/tournaments
// lists it: "Equal points are ordered by FIDE C.07 tie-breaks, 2026 edition (in force when
// the tournament started)." Empty without the rules (an older hub does not serve them).
export function editionNote(rules, tournament) {
  const edition = rules && rules.tie_break_edition_in_force;
  if (!edition) return "";
  const why = rules.tie_break_edition ? "named by the tournament's rules"
    : tournament && tournament.start_date ? "in force when the tournament started"
      : "in force today";
  const note = `Equal points are ordered by FIDE C.07 tie-breaks, ${edition} edition (${why}).`;
  const left = rules.tie_breaks_left_out || [];
  if (!left.length) return note;
  return `${note} ${left.join(", ")} ${left.length > 1 ? "are" : "is"} left out: unrated players `
    + "take part (C.07 article 10).";
}
