// The duplicate standings ready to print (A4, black on white, no cut row):
// one game (?partie=P), the cumul of the tournament (no partie) and each
// série (?serie=A), for /classement/<tournoi>. Public data only, like the
// hall display: classement counts only corrected bulletins (§5), and the
// page says how many are still awaiting correction. The header names the
// tournament, the game and the série, and when the sheet was printed.
import { ligne, param, query } from "./gql.js";

  const tournoi = decodeURIComponent(location.pathname.replace(/^\/classement\/?/, "").split("/")[0] || "");
  const partie = param("partie") || "";
  const serie = param("serie") || "";
  const pourcent = new Intl.NumberFormat("fr-FR", { minimumFractionDigits: 1, maximumFractionDigits: 1 });
  const etat = document.getElementById("etat");

  const TOURNOI = `query($t: ID!) { tournoi(id: $t) { nom parties joueurs { serie } } }`;
  const PARTIE = `query($p: ID!) { partie(id: $p) { tournoi numero statut fin { dernierCoup } coup } }`;
  const CLASSEMENT = `query($p: ID, $t: ID, $s: String) { classement(partie: $p, tournoi: $t, serie: $s) {
    rang licence nom club serie score negatif pourcentage enAttente exclu provisoire } }`;

  // adresse is this page for another game or série (the cumul without one).
  function adresse(p, s) {
    const q = new URLSearchParams();
    if (p) q.set("partie", p);
    if (s) q.set("serie", s);
    const qs = q.toString();
    return `/classement/${encodeURIComponent(tournoi)}${qs ? "?" + qs : ""}`;
  }

  function lien(texte, href, choisi) {
    const a = document.createElement("a");
    a.textContent = texte;
    a.href = href;
    if (choisi) a.className = "choisi";
    return a;
  }

  async function charger() {
    if (!tournoi) throw new Error("adresse sans tournoi : /classement/<tournoi>");
    const t = (await query(TOURNOI, { t: tournoi })).tournoi;
    if (!t) throw new Error(`le tournoi ${tournoi} n'existe pas`);
    let portee = "Cumul du tournoi";
    if (partie) {
      const p = (await query(PARTIE, { p: partie })).partie;
      // The game must be one of this tournament's: its stored tournament
      // says so, not the address.
      if (!p || p.tournoi !== tournoi) throw new Error(`la partie ${partie} n'appartient pas au tournoi ${tournoi}`);
      portee = `Partie n° ${p.numero || t.parties.indexOf(partie) + 1}` + (p.statut === "terminee" ? "" : ` (en cours, coup ${p.coup})`);
    }
    const series = [...new Set(t.joueurs.map((j) => j.serie).filter(Boolean))].sort();
    document.getElementById("parties").replaceChildren(lien("cumul", adresse("", serie), !partie),
      ...t.parties.map((p, i) => lien(`partie ${i + 1}`, adresse(p, serie), p === partie)));
    document.getElementById("series").replaceChildren(lien("toutes", adresse(partie, ""), !serie),
      ...series.map((s) => lien(s, adresse(partie, s), s === serie)));
    document.title = `Classement — ${t.nom}`;
    document.getElementById("tournoi").textContent = t.nom;
    document.getElementById("portee").textContent = portee + (serie ? ` — série ${serie}` : "");
    const maintenant = new Date();
    document.getElementById("edition").textContent = "Édité le " + maintenant.toLocaleDateString("fr-FR", { dateStyle: "long" }) +
      " à " + maintenant.toLocaleTimeString("fr-FR", { hour: "2-digit", minute: "2-digit" });

    const lignes = (await query(CLASSEMENT, { p: partie || null, t: partie ? null : tournoi, s: serie || null })).classement;
    document.getElementById("lignes").replaceChildren(...lignes.map((l) => ligne([[l.rang, true],
      [l.nom + (l.exclu ? " (exclu, §6.1)" : ""), false], [l.licence, false], [l.club || "", false], [l.serie || "", false],
      [l.score, true], [l.negatif, true], [pourcent.format(l.pourcentage), true]])));
    document.getElementById("provisoire").hidden = !lignes.some((l) => l.provisoire);
    const attente = lignes.reduce((n, l) => n + l.enAttente, 0);
    document.getElementById("attente").textContent = (lignes.length ? `${lignes.length} joueurs classés.` : "Aucun joueur classé.") +
      (attente ? ` ${attente} bulletin(s) en attente de correction ne comptent pas encore.` : "");
  }

  document.getElementById("imprimer").onclick = () => window.print();
  charger().then(() => { etat.textContent = ""; }, (e) => { etat.textContent = "Classement indisponible : " + e.message; });
