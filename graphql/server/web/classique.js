// The hall display of a classique tournament: the last published round's
// tables (who starts, results as they are recorded) and the standings
// (points de match, capped spread, cote), paging by themselves. Public data
// only, live through the rondeChangee subscription.
import { coteClassique, COTES_CALCULEES, finsClassique, nomsClassique, relireCotes, scoreTable } from "./classique-commun.js";
import { ligne, Live, Pager, param, query } from "./gql.js";

  const tournoi = decodeURIComponent(location.pathname.replace(/^\/affichage\/classique\/?/, "").split("/")[0] || "");
  const parPage = parseInt(param("lignes") || "15", 10);
  const periode = parseInt(param("secondes") || "8", 10) * 1000;
  const tables = new Pager(document.getElementById("tables"), document.createElement("p"), parPage, periode);
  const lignes = new Pager(document.getElementById("lignes"), document.getElementById("page"), parPage, periode);
  const CHAMPS = `nom rondes clos inscrits { joueur nom }
    publiees { ronde exempt tables { numero premier second resultat { joueurs scores fin } } }
    classement { rang joueur nom pointsDeMatch pdep cote retire } ${COTES_CALCULEES}`;

  function montrer(t) {
    const noms = nomsClassique(t);
    document.getElementById("titre").textContent = t.nom;
    const ronde = t.publiees[t.publiees.length - 1];
    document.getElementById("ronde").textContent = t.clos ? "Tournoi clos" : ronde ? `Ronde ${ronde.ronde} / ${t.rondes}` : "Inscriptions";
    tables.set(ronde ? ronde.tables.map((tb) => {
      const fin = tb.resultat ? finsClassique[tb.resultat.fin] || tb.resultat.fin : "en cours";
      return ligne([[tb.numero, true], [noms[tb.premier] || tb.premier, false], [noms[tb.second] || tb.second, false],
        [scoreTable(tb), true], [fin, false]]);
    }) : []);
    document.getElementById("exempt").textContent = ronde && ronde.exempt ? "Exempt : " + (noms[ronde.exempt] || ronde.exempt) : "";
    lignes.set(t.classement.map((l) => ligne([[l.rang, true], [l.nom + (l.retire ? " (retiré)" : ""), false],
      [l.pointsDeMatch, true], [l.pdep, true], [coteClassique(t, l), true]])));
    relireCotes(t, relire);
  }

  // relire reads the tournament once: its cotes come a moment after the
  // closing, with no event for the subscription.
  function relire() {
    query(`query($t: ID!) { tournoiClassique(id: $t) { ${CHAMPS} } }`, { t: tournoi })
      .then((d) => d.tournoiClassique && montrer(d.tournoiClassique)).catch(() => {});
  }

  const live = new Live(null, (connecte) => {
    const etat = document.getElementById("etat");
    etat.textContent = connecte ? "en direct" : "reconnexion…";
    etat.className = "etat" + (connecte ? "" : " hors-ligne");
  });
  live.subscribe(`subscription($t: ID!) { rondeChangee(tournoi: $t) { ${CHAMPS} } }`, { t: tournoi }, (d) => montrer(d.rondeChangee));
