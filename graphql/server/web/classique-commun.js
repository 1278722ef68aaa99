// What every classique page says the same way: how a game ended, in French
// (§7, §9), the players' names of a tournament, and the cotes once it is
// closed and rated. Shared by the hall display, the TD console and its
// printed pages.

  // finsClassique names each FinClassique for people.
  export const finsClassique = {
    reliquat_epuise: "lettres épuisées", blocage: "blocage", temps_epuise: "temps épuisé", six_passes: "six passes",
    abandon: "abandon", abandon_unilateral: "abandon", defaite_arbitrale: "décision arbitrale",
    defaite_huit_lettres: "huit lettres", forfait: "forfait",
  };

  // nomsClassique maps each registered player's id to his name (the id when
  // he has none).
  export function nomsClassique(t) {
    const noms = {};
    for (const i of t.inscrits) noms[i.joueur] = i.nom || i.joueur;
    return noms;
  }

  // COTES_CALCULEES are the fields of TournoiClassique the cotes need.
  export const COTES_CALCULEES = "cotesCalculees { joueur avant apres }";

  // coteClassique writes a standings line's cote: once the closed
  // tournament is rated, before → after and the change, « 1500 → 1523
  // (+23) »; the cote entering it otherwise.
  export function coteClassique(t, l) {
    const c = (t.cotesCalculees || []).find((x) => x.joueur === l.joueur);
    if (!c) return String(l.cote);
    const d = c.apres - c.avant;
    return `${c.avant} → ${c.apres} (${d > 0 ? "+" : d < 0 ? "−" : "±"}${Math.abs(d)})`;
  }

  // relireCotes reads the tournament again a second later while it is
  // closed and not rated yet: the cotes are computed a moment after the
  // closing, and no event says when. A minute at most (a tournament of
  // forfeits only rates no one).
  let relectures = 0;
  export function relireCotes(t, relire) {
    if (t && t.clos && !(t.cotesCalculees || []).length && relectures < 60) {
      relectures++;
      setTimeout(relire, 1000);
    }
  }

  // scoreTable is the score of a table's result, its first player first.
  export function scoreTable(tb) {
    const r = tb.resultat;
    if (!r) return "";
    const p = r.joueurs.indexOf(tb.premier);
    return `${r.scores[p]} – ${r.scores[1 - p]}`;
  }
