// Who did what and when, for the commission's pages: the replay's journal of
// a coup and an appeal's history are both lists of acts { quand, type,
// acteur, role }. Consecutive acts of one kind by one actor are grouped (a
// coup of 300 players records 300 bulletins).
//
//   tbody.replaceChildren(...Arbitre.lignesActes(actes));
"use strict";

(function () {
  const Arbitre = window.Arbitre || (window.Arbitre = {});
  const heure = (q) => new Date(q).toLocaleTimeString("fr-FR");

  Arbitre.lignesActes = function (actes) {
    const groupes = [];
    for (const a of actes) {
      const g = groupes[groupes.length - 1];
      if (g && g.type === a.type && g.acteur === a.acteur && g.role === a.role) {
        g.n++;
        g.fin = a.quand;
      } else {
        groupes.push({ ...a, n: 1, fin: a.quand });
      }
    }
    return groupes.map((g) => Arbitre.ligne([
      [g.n > 1 && heure(g.fin) !== heure(g.quand) ? `${heure(g.quand)} – ${heure(g.fin)}` : heure(g.quand)],
      [g.type.replace(/^(partie|appel)\./, "").replace(/_/g, " ") + (g.n > 1 ? ` ×${g.n}` : "")],
      [`${g.acteur} (${g.role})`]]));
  };
})();
