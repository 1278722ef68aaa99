// The commission's appeal workflow for one game (§6.3–§6.4, guide §3.8),
// beside the replay viewer on /commission/<partie>: the game's appeals, filing
// one (an arbiter or the director enters a player's appeal, §6.3), composing
// the commission (a président and at least two other members, guide §3.8.2),
// each member's vote, the decision by majority with its rationale (guide
// §3.8.1.A), the levels and the history. Everything goes through the API's
// mutations (deposerAppel, composerCommission, voter, deciderAppel) with the
// session's token; every one of them records a fact for good, so each asks
// for confirmation first.
//
//   const appels = new Appels(session, partie, { allerAuCoup: (n) => ... });
//   appels.charger();                 // after sign-in, and after each change
//   appels.preparerDepot(coup, licence);  // "Faire appel" on a bulletin
import { lignesActes } from "./actes.js";
import { confirmer } from "./actions.js";
import { ligne, param, query } from "./gql.js";

  const DECISION = `paye sanction raisons`;
  const APPEL = `id tournoi partie coup licence table statut deposeLe revision
    decisionEnVigueur { ${DECISION} }
    niveaux { numero instance requerant qualite motif contestee { ${DECISION} } demandee { ${DECISION} }
      president membres votes { membre issue } issue motivation }
    historique { quand type acteur role qui }`;
  const APPELS = `query($p: ID!) { appels(partie: $p) { ${APPEL} } }`;
  const PARTIE = `query($p: ID!) { partie(id: $p) { tournoi } }`;
  const BULLETINS = `query($p: ID!, $c: Int!) { bulletins(partie: $p, coup: $c) { licence decision { paye sanction raisons commission place scoreRenvoye } } }`;
  const DEPOSER = `mutation($a: DepotAppelInput!, $m: String) { deposerAppel(appel: $a, clientMutationId: $m) { id } }`;
  // An appeal's id belongs to its tournament: every command names both.
  const COMPOSER = `mutation($t: ID!, $a: ID!, $p: String!, $m: [String!]!, $r: Int) {
    composerCommission(tournoi: $t, appel: $a, president: $p, membres: $m, revision: $r) { id } }`;
  const VOTER = `mutation($t: ID!, $a: ID!, $m: String!, $i: IssueAppel!, $r: Int) {
    voter(tournoi: $t, appel: $a, membre: $m, issue: $i, revision: $r) { id } }`;
  const DECIDER = `mutation($t: ID!, $a: ID!, $i: IssueAppel!, $d: DecisionInput, $m: String!, $r: Int) {
    deciderAppel(tournoi: $t, appel: $a, issue: $i, decision: $d, motivation: $m, revision: $r) { id } }`;

  const STATUTS = { depose: "déposé, commission à composer", en_examen: "en examen", decide: "décidé", classe: "classé nul et non avenu (§6.4.2.c)" };
  const ISSUES = { accueilli: "accueilli", rejete: "rejeté", amende: "amendé" };
  const INSTANCES = { commission_arbitrage: "commission d'arbitrage (§6.4.1)", commission_recours_fisf: "commission de recours FISF (§6.4.2)" };
  const SANCTIONS = { none: "sans sanction", warning: "avertissement (§5.5)", penalty: "pénalité (§5.6)", zero: "nullité (§5.7)", average: "moyenne (§5.9)" };

  // decision says a bulletin decision in words.
  function decision(d) {
    if (!d) return "—";
    return `${d.paye} pts, ${SANCTIONS[d.sanction] || d.sanction}` + (d.raisons && d.raisons.length ? ` (${d.raisons.join(", ")})` : "");
  }

  function el(tag, texte, classe) {
    const e = document.createElement(tag);
    if (texte != null) e.textContent = texte;
    if (classe) e.className = classe;
    return e;
  }

  function options(select, valeurs) {
    select.replaceChildren(...Object.entries(valeurs).map(([v, t]) => {
      const o = el("option", t);
      o.value = v;
      return o;
    }));
  }

  // majorite is the outcome the votes carry, the président's vote breaking
  // a tie (guide §3.8.1.A; domain/appel.Majorite decides, this only
  // preselects it).
  function majorite(n) {
    const compte = {};
    let president = "";
    for (const v of n.votes) {
      compte[v.issue] = (compte[v.issue] || 0) + 1;
      if (v.membre === n.president) president = v.issue;
    }
    const max = Math.max(0, ...Object.values(compte));
    const entete = Object.keys(compte).filter((i) => compte[i] === max);
    return entete.length === 1 ? entete[0] : entete.includes(president) ? president : "";
  }

  // lignesAppels gives the rows of a list of appeals: id, game
  // (shown on the tournament's list only), coup, player, table, requester,
  // status, level, outcome, then the link to its coup's replay (lien(a))
  // and a button that opens it (ouvrir(a)).
  export function lignesAppels(liste, { choisi, lien, ouvrir }) {
    return liste.map((a) => {
      const n = a.niveaux[a.niveaux.length - 1];
      const tr = ligne([[a.id], [a.partie || ""], [a.coup || "", true], [a.licence || ""],
        [a.table || "", true], [`${n.requerant} (${n.qualite})`], [STATUTS[a.statut]], [n.numero, true], [n.issue ? ISSUES[n.issue] : ""]]);
      tr.cells[1].className = "tournoi";
      const td = el("td");
      if (a.coup && a.partie) td.append(lien(a), " ");
      const bouton = el("button", a.id === choisi ? "ouvert" : "ouvrir");
      bouton.type = "button";
      bouton.dataset.appel = a.id;
      bouton.disabled = a.id === choisi;
      bouton.onclick = () => ouvrir(a);
      td.append(bouton);
      tr.appendChild(td);
      if (a.id === choisi) tr.className = "choisi";
      return tr;
    });
  }

  // APPELS_TOURNOI reads a tournament's appeals for a list.
  export const APPELS_TOURNOI = `query($t: ID!) { appels(tournoi: $t) { id partie coup licence table statut
    niveaux { numero requerant qualite issue } } }`;

  export class Appels {
    constructor(session, partie, { allerAuCoup }) {
      this.session = session;
      this.partie = partie;
      this.allerAuCoup = allerAuCoup;
      this.liste = [];
      this.choisi = param("appel") || "";
      this.racine = document.getElementById("recours");
      this.message = document.getElementById("appel-message");
      const $ = (id) => document.getElementById(id);
      this.f = { depot: $("form-depot"), composer: $("form-composer"), voter: $("form-voter"), decider: $("form-decider") };
      options(this.f.depot.elements.sanction, SANCTIONS);
      options(this.f.decider.elements.sanction, SANCTIONS);
      options(this.f.voter.elements.issue, ISSUES);
      options(this.f.decider.elements.issue, ISSUES);
      this.f.decider.elements.issue.onchange = () => this.montrerDecisionPropre();
      this.f.depot.onsubmit = (ev) => this.agir(ev, () => this.deposer());
      this.f.composer.onsubmit = (ev) => this.agir(ev, () => this.composer());
      this.f.voter.onsubmit = (ev) => this.agir(ev, () => this.voter());
      this.f.decider.onsubmit = (ev) => this.agir(ev, () => this.decider());
    }

    // charger reads the game's appeals and shows the chosen one.
    async charger() {
      this.racine.hidden = false;
      try {
        const p = (await query(PARTIE, { p: this.partie })).partie;
        this.tournoi = (p && p.tournoi) || "";
        document.getElementById("vers-tournoi").href = `/commission?tournoi=${encodeURIComponent(this.tournoi)}`;
        this.liste = (await this.session.query(APPELS, { p: this.partie })).appels;
        this.montrerListe();
        this.montrerAppel();
      } catch (e) {
        this.dire(e.message, true);
      }
    }

    dire(texte, erreur) {
      this.message.textContent = texte;
      this.message.classList.toggle("erreur", !!erreur);
    }

    // agir runs a form's action: errors are shown in French, the state is
    // read again after a success, and after a CONFLICT (another member
    // acted on the appeal meanwhile) so the screen shows what was recorded.
    async agir(ev, action) {
      ev.preventDefault();
      try {
        const fait = await action();
        if (!fait) return;
        await this.charger();
        this.dire(fait, false);
      } catch (e) {
        if (e.code === "CONFLICT") await this.charger();
        this.dire(e.message, true);
      }
    }

    appel() {
      return this.liste.find((a) => a.id === this.choisi);
    }

    choisir(id) {
      this.choisi = id;
      const q = new URLSearchParams(location.search);
      q.set("appel", id);
      history.replaceState(null, "", `${location.pathname}?${q}`);
      this.dire("", false);
      this.montrerListe();
      this.montrerAppel();
    }

    lienRejeu(a) {
      const lien = el("a", `rejeu du coup ${a.coup}`);
      lien.href = `${location.pathname}?coup=${a.coup}&appel=${encodeURIComponent(a.id)}`;
      lien.onclick = (ev) => {
        ev.preventDefault();
        this.choisir(a.id);
        this.allerAuCoup(a.coup);
      };
      return lien;
    }

    montrerListe() {
      document.getElementById("appels-vide").hidden = this.liste.length > 0;
      document.getElementById("appels").replaceChildren(...lignesAppels(this.liste, {
        choisi: this.choisi, lien: (a) => this.lienRejeu(a), ouvrir: (a) => this.choisir(a.id) }));
    }

    montrerAppel() {
      const a = this.appel();
      const article = document.getElementById("appel");
      article.hidden = !a;
      if (!a) return;
      const n = a.niveaux[a.niveaux.length - 1];
      document.getElementById("appel-titre").textContent = `Appel ${a.id} — ` +
        [a.coup ? `coup ${a.coup}` : "", a.licence ? `joueur ${a.licence}` : "", a.table ? `table ${a.table}` : ""].filter(Boolean).join(", ") +
        ` — ${STATUTS[a.statut]}`;
      const rejeu = document.getElementById("appel-rejeu");
      rejeu.replaceChildren(...(a.coup ? ["Voir le ", this.lienRejeu(a)] : []));
      document.getElementById("appel-vigueur").textContent = a.statut === "decide" ?
        `Décision en vigueur : ${a.decisionEnVigueur ? decision(a.decisionEnVigueur) : "la décision contestée est maintenue"}` : "";
      document.getElementById("niveaux").replaceChildren(...a.niveaux.map((niv) => this.niveau(niv)));
      document.getElementById("appel-historique").replaceChildren(...lignesActes(a.historique));

      // The forms the current level allows.
      const ouvert = a.statut === "depose" || a.statut === "en_examen";
      this.f.composer.hidden = !(ouvert && !n.president);
      const aVoter = n.membres.filter((m) => !n.votes.some((v) => v.membre === m));
      this.f.voter.hidden = !(ouvert && n.president && aVoter.length);
      this.f.decider.hidden = !(ouvert && n.president && !aVoter.length);
      const membre = this.f.voter.elements.membre;
      membre.replaceChildren(...aVoter.map((m) => { const o = el("option", m); o.value = m; return o; }));
      if (!this.f.decider.hidden) {
        const m = majorite(n);
        this.f.decider.elements.issue.value = m || "rejete";
        document.getElementById("majorite").textContent = m ? `Majorité des votes : ${ISSUES[m]}.` : "Aucune majorité : les voix sont partagées sans celle du président, la décision ne peut pas être rendue.";
        this.montrerDecisionPropre();
      }
    }

    // niveau shows one level: who seized which body, why, what was
    // contested and requested, the commission, the votes and the outcome.
    niveau(n) {
      const bloc = el("section", null, "niveau");
      bloc.append(el("h4", `Niveau ${n.numero} : ${INSTANCES[n.instance] || n.instance}`));
      const dl = el("dl");
      const champ = (t, v) => { if (v) dl.append(el("dt", t), el("dd", v)); };
      champ("Requérant", `${n.requerant} (${n.qualite})`);
      champ("Motif", n.motif);
      champ("Décision contestée", n.contestee && decision(n.contestee));
      champ("Décision demandée", n.demandee && decision(n.demandee));
      champ("Président", n.president);
      champ("Membres", n.membres.join(", "));
      champ("Votes", n.votes.map((v) => `${v.membre} : ${ISSUES[v.issue]}`).join(" ; ") || (n.president ? "aucun vote" : ""));
      champ("Issue", n.issue && ISSUES[n.issue]);
      champ("Motivation", n.motivation);
      bloc.append(dl);
      return bloc;
    }

    // montrerDecisionPropre shows the bulletin decision fields only when the
    // commission amends: upheld applies the requested decision, rejected
    // keeps the contested one.
    montrerDecisionPropre() {
      const a = this.appel();
      const propre = this.f.decider.elements.issue.value === "amende" && a && a.coup && a.licence;
      document.getElementById("decision-propre").hidden = !propre;
      this.f.decider.elements.paye.required = !!propre;
    }

    // preparerDepot opens the filing form for a bulletin of the replay.
    preparerDepot(coup, licence) {
      const e = this.f.depot.elements;
      e.coup.value = coup;
      e.licence.value = licence;
      if (!e.id.value) e.id.value = `${this.partie}-c${coup}-${licence}`;
      document.getElementById("depot").open = true;
      e.requerant.focus();
    }

    async deposer() {
      const e = this.f.depot.elements;
      const coup = e.coup.value ? parseInt(e.coup.value, 10) : null;
      const licence = e.licence.value.trim() || null;
      const appel = { id: e.id.value.trim(), tournoi: this.tournoi,
        partie: this.partie, coup, licence, requerant: e.requerant.value.trim(), qualite: e.qualite.value, motif: e.motif.value.trim() };
      if (e.paye.value !== "") appel.demandee = { paye: parseInt(e.paye.value, 10), sanction: e.sanction.value };
      if (coup && licence) {
        // The contested decision is the one recorded for the bulletin.
        const b = (await this.session.query(BULLETINS, { p: this.partie, c: coup })).bulletins.find((x) => x.licence === licence);
        if (b && b.decision) appel.contestee = b.decision;
      }
      if (!(await confirmer(`Déposer l'appel ${appel.id} de ${appel.requerant} ? Un appel déposé ne se retire pas (§6.3).`))) return "";
      await this.session.query(DEPOSER, { a: appel, m: `depot-${appel.id}` });
      this.f.depot.reset();
      document.getElementById("depot").open = false;
      this.choisi = appel.id;
      return `Appel ${appel.id} déposé.`;
    }

    async composer() {
      const a = this.appel();
      const e = this.f.composer.elements;
      const president = e.president.value.trim();
      const autres = e.membres.value.split(/[,;\n]/).map((m) => m.trim()).filter(Boolean);
      const membres = [president, ...autres.filter((m) => m !== president)];
      if (!(await confirmer(`Composer la commission de l'appel ${a.id} : président ${president}, membres ${membres.join(", ")} ? La composition est définitive.`))) return "";
      await this.session.query(COMPOSER, { t: a.tournoi, a: a.id, p: president, m: membres, r: a.revision });
      this.f.composer.reset();
      return "Commission composée.";
    }

    async voter() {
      const a = this.appel();
      const e = this.f.voter.elements;
      if (!(await confirmer(`Enregistrer le vote de ${e.membre.value} : ${ISSUES[e.issue.value]} ? Un vote ne se reprend pas.`))) return "";
      await this.session.query(VOTER, { t: a.tournoi, a: a.id, m: e.membre.value, i: e.issue.value, r: a.revision });
      return `Vote de ${e.membre.value} enregistré.`;
    }

    async decider() {
      const a = this.appel();
      const e = this.f.decider.elements;
      const vars = { t: a.tournoi, a: a.id, i: e.issue.value, m: e.motivation.value.trim(), r: a.revision, d: null };
      if (!document.getElementById("decision-propre").hidden) vars.d = { paye: parseInt(e.paye.value, 10), sanction: e.sanction.value };
      if (!(await confirmer(`Rendre la décision « ${ISSUES[vars.i]} » sur l'appel ${a.id} ? Elle est définitive et s'applique au classement.`))) return "";
      await this.session.query(DECIDER, vars);
      this.f.decider.reset();
      return "Décision rendue.";
    }
  }
