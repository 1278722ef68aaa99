// What every classique page says the same way: how a game ended, in French
// (§7, §9), and the players' names of a tournament. Shared by the hall
// display, the TD console and its printed pages.
"use strict";

(function () {
  const Arbitre = window.Arbitre || (window.Arbitre = {});

  // finsClassique names each FinClassique for people.
  Arbitre.finsClassique = {
    reliquat_epuise: "lettres épuisées", blocage: "blocage", temps_epuise: "temps épuisé", six_passes: "six passes",
    abandon: "abandon", abandon_unilateral: "abandon", defaite_arbitrale: "décision arbitrale",
    defaite_huit_lettres: "huit lettres", forfait: "forfait",
  };

  // nomsClassique maps each registered player's id to his name (the id when
  // he has none).
  Arbitre.nomsClassique = function (t) {
    const noms = {};
    for (const i of t.inscrits) noms[i.joueur] = i.nom || i.joueur;
    return noms;
  };

  // scoreTable is the score of a table's result, its first player first.
  Arbitre.scoreTable = function (tb) {
    const r = tb.resultat;
    if (!r) return "";
    const p = r.joueurs.indexOf(tb.premier);
    return `${r.scores[p]} – ${r.scores[1 - p]}`;
  };
})();
