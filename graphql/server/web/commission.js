// The commission's replay viewer: a coup reproduced from events only —
// grid, tirage, reliquat, the engine's top candidates, the retained top,
// each bulletin as written beside the decision recorded and the decision the
// engine gives now (differences highlighted), and who did what and when.
"use strict";

(function () {
  const partie = decodeURIComponent(location.pathname.replace(/^\/commission\/?/, "").split("/")[0] || "");
  let coup = parseInt(Arbitre.param("coup") || "1", 10);
  const param = Arbitre.param("jeton");
  if (param) localStorage.setItem("arbitre.jeton", param);
  let jeton = localStorage.getItem("arbitre.jeton");

  const REPLAY = `query($p: ID!, $c: Int!) { replay(partie: $p, coup: $c) {
    coup dernierCoup grille tirage reliquat sac
    top { mot reference score cases }
    solutions { mot reference score avecJoker admissible }
    bulletins { licence table ecrit enregistree { texte } moteur { texte } ecart }
    journal { quand type acteur role } } }`;

  function cellules(tr, valeurs) {
    for (const v of valeurs) {
      const td = document.createElement("td");
      td.textContent = v;
      tr.appendChild(td);
    }
    return tr;
  }

  function remplir(id, lignes) {
    document.getElementById(id).replaceChildren(...lignes);
  }

  async function charger() {
    const etat = document.getElementById("etat");
    try {
      const d = (await Arbitre.query(REPLAY, { p: partie, c: coup }, jeton)).replay;
      document.getElementById("connexion").hidden = true;
      document.getElementById("contenu").hidden = false;
      document.getElementById("titre").textContent = "Commission — partie " + partie;
      document.getElementById("coup").textContent = `coup ${d.coup} / ${d.dernierCoup}`;
      document.getElementById("tirage").textContent = d.tirage;
      document.getElementById("reliquat").textContent = d.reliquat || "—";
      document.getElementById("sac").textContent = d.sac;
      document.getElementById("top").textContent = d.top ? `${d.top.mot} en ${d.top.reference}, ${d.top.score} pts` : "aucun";
      Arbitre.drawBoard(document.getElementById("plateau"), d.grille, d.top ? d.top.cases : []);
      remplir("solutions", d.solutions.map((s) => cellules(document.createElement("tr"),
        [s.mot, s.reference, s.score, s.avecJoker ? "oui" : "", s.admissible ? "oui" : "non"])));
      remplir("bulletins", d.bulletins.map((b) => {
        const tr = cellules(document.createElement("tr"), [b.licence, b.table || "", b.ecrit,
          b.enregistree ? b.enregistree.texte : "en attente", b.moteur.texte]);
        if (b.ecart) tr.className = "ecart";
        return tr;
      }));
      remplir("journal", d.journal.map((a) => cellules(document.createElement("tr"),
        [new Date(a.quand).toLocaleString("fr-FR"), a.type, `${a.acteur} (${a.role})`])));
      etat.textContent = "";
      history.replaceState(null, "", `${location.pathname}?coup=${coup}`);
      document.getElementById("precedent").disabled = d.coup <= 1;
      document.getElementById("suivant").disabled = d.coup >= d.dernierCoup;
    } catch (e) {
      if (e.code === "UNAUTHENTICATED" || e.code === "FORBIDDEN") {
        document.getElementById("connexion").hidden = false;
        document.getElementById("contenu").hidden = true;
      }
      etat.textContent = e.message;
    }
  }

  document.getElementById("precedent").onclick = () => { coup--; charger(); };
  document.getElementById("suivant").onclick = () => { coup++; charger(); };
  document.getElementById("connexion").onsubmit = (ev) => {
    ev.preventDefault();
    jeton = document.getElementById("jeton").value.trim();
    localStorage.setItem("arbitre.jeton", jeton);
    charger();
  };
  charger();
})();
