// The hall display of a classique tournament: the last published round's
// tables (who starts, results as they are recorded) and the standings
// (points de match, capped spread, cote), paging by themselves. Public data
// only, live through the rondeChangee subscription.
"use strict";

(function () {
  const tournoi = decodeURIComponent(location.pathname.replace(/^\/affichage\/classique\/?/, "").split("/")[0] || "");
  const parPage = parseInt(Arbitre.param("lignes") || "15", 10);
  const periode = parseInt(Arbitre.param("secondes") || "8", 10) * 1000;
  const tables = new Arbitre.Pager(document.getElementById("tables"), document.createElement("p"), parPage, periode);
  const lignes = new Arbitre.Pager(document.getElementById("lignes"), document.getElementById("page"), parPage, periode);
  const CHAMPS = `nom rondes clos inscrits { joueur nom }
    publiees { ronde exempt tables { numero premier second resultat { joueurs scores fin } } }
    classement { rang joueur nom pointsDeMatch pdep cote retire } ${Arbitre.COTES_CALCULEES}`;

  function montrer(t) {
    const noms = Arbitre.nomsClassique(t);
    document.getElementById("titre").textContent = t.nom;
    const ronde = t.publiees[t.publiees.length - 1];
    document.getElementById("ronde").textContent = t.clos ? "Tournoi clos" : ronde ? `Ronde ${ronde.ronde} / ${t.rondes}` : "Inscriptions";
    tables.set(ronde ? ronde.tables.map((tb) => {
      const fin = tb.resultat ? Arbitre.finsClassique[tb.resultat.fin] || tb.resultat.fin : "en cours";
      return Arbitre.ligne([[tb.numero, true], [noms[tb.premier] || tb.premier, false], [noms[tb.second] || tb.second, false],
        [Arbitre.scoreTable(tb), true], [fin, false]]);
    }) : []);
    document.getElementById("exempt").textContent = ronde && ronde.exempt ? "Exempt : " + (noms[ronde.exempt] || ronde.exempt) : "";
    lignes.set(t.classement.map((l) => Arbitre.ligne([[l.rang, true], [l.nom + (l.retire ? " (retiré)" : ""), false],
      [l.pointsDeMatch, true], [l.pdep, true], [Arbitre.coteClassique(t, l), true]])));
    Arbitre.relireCotes(t, relire);
  }

  // relire reads the tournament once: its cotes come a moment after the
  // closing, with no event for the subscription.
  function relire() {
    Arbitre.query(`query($t: ID!) { tournoiClassique(id: $t) { ${CHAMPS} } }`, { t: tournoi })
      .then((d) => d.tournoiClassique && montrer(d.tournoiClassique)).catch(() => {});
  }

  const live = new Arbitre.Live(null, (connecte) => {
    const etat = document.getElementById("etat");
    etat.textContent = connecte ? "en direct" : "reconnexion…";
    etat.className = "etat" + (connecte ? "" : " hors-ligne");
  });
  live.subscribe(`subscription($t: ID!) { rondeChangee(tournoi: $t) { ${CHAMPS} } }`, { t: tournoi }, (d) => montrer(d.rondeChangee));
})();
