// Session: the signed-in side of the consoles (director, arbiter, TD,
// commission). One token per tab: typed or pasted once into the page's
// sign-in form, kept in this tab's sessionStorage until the tab closes, and
// sent only in the Authorization header and in the websocket's
// connection_init — never in an address (it would reach logs and history).
// A token an older version left in localStorage is forgotten.
//
// Usage:
//   const session = new Session("Jeton du directeur", () => demarrer(), ["DIRECTOR"]);
//   const data = await session.query(QUERY, vars);   // throws on error
//   const live = session.live((enDirect) => ...);     // Live with the token
//
// The sign-in form (#connexion, its #jeton and .message) is built here, once
// per page, under the page's header, labelled as given. Signing in checks the
// token at once (moi): an unknown, expired or revoked token, or one of a role
// the console does not take (roles), is refused there with a French message,
// and the console says what a good one allows (role, tournament, tables). On
// UNAUTHENTICATED later (a token revoked or expired meanwhile) the token is
// dropped and the form shown again; onReady runs again once a new token is
// entered.
import { Live, query } from "./gql.js";

  const CLE = "arbitre.jeton";

  // formulaire builds the sign-in form, or returns the one already built
  // (two scripts of one page may each open a session).
  function formulaire(libelle) {
    const existant = document.getElementById("connexion");
    if (existant) return existant;
    const form = document.createElement("form");
    form.id = "connexion";
    form.hidden = true;
    const champ = document.createElement("input");
    Object.assign(champ, { id: "jeton", name: "jeton", type: "password", size: 50, autocomplete: "off" });
    const label = document.createElement("label");
    label.append(libelle + " ", champ);
    const bouton = document.createElement("button");
    bouton.textContent = "Entrer";
    const message = document.createElement("p");
    message.className = "message";
    form.append(label, " ", bouton, message);
    const entete = document.querySelector("body > header");
    if (entete) entete.after(form);
    else document.body.prepend(form);
    return form;
  }

  // ROLES names each role's token for people.
  const ROLES = { DIRECTOR: "de directeur", ARBITER: "d'arbitre", COMMISSION: "de la commission", CENTRE: "de centre" };

  // portee says what a token allows: its role, tournament and tables.
  function portee(moi) {
    let t = "jeton " + (ROLES[moi.role] || moi.role);
    t += moi.tournoi ? ", tournoi " + moi.tournoi : ", tous les tournois";
    if (moi.tables) t += ", tables " + moi.tables;
    return t;
  }

  export class Session {
    // roles are the roles the console takes (all when absent).
    constructor(libelle, onReady, roles) {
      const form = formulaire(libelle);
      this.form = form;
      this.onReady = onReady;
      this.roles = roles;
      localStorage.removeItem(CLE);
      this.jeton = sessionStorage.getItem(CLE) || "";
      form.addEventListener("submit", (ev) => {
        ev.preventDefault();
        const v = form.elements.jeton.value.trim();
        if (!v) return;
        form.elements.jeton.value = "";
        this.entrer(v, true);
      });
      if (this.jeton) {
        this.afficher(false, "");
        queueMicrotask(() => this.entrer(this.jeton, false));
      } else {
        this.afficher(true, "Collez votre jeton pour commencer.");
      }
    }

    // entrer checks a token with the server (moi) before the console uses
    // it: refused there, with why, or kept (in this tab's sessionStorage when
    // typed: nouveau) and its scope shown.
    async entrer(jeton, nouveau) {
      let moi;
      try {
        moi = (await query("{ moi { role tournoi tables } }", {}, jeton)).moi;
      } catch (e) {
        this.deconnecter(e.code === "UNAUTHENTICATED"
          ? "Jeton inconnu, expiré ou révoqué : vérifiez-le et collez-le de nouveau."
          : "Jeton non vérifié : " + e.message);
        return;
      }
      if (!moi) {
        this.deconnecter("Jeton inconnu, expiré ou révoqué : vérifiez-le et collez-le de nouveau.");
        return;
      }
      if (this.roles && !this.roles.includes(moi.role)) {
        const voulus = this.roles.map((r) => "un jeton " + (ROLES[r] || r)).join(" ou ");
        this.deconnecter(`Ce jeton est un ${portee(moi)} : cette console demande ${voulus}.`);
        return;
      }
      this.jeton = jeton;
      if (nouveau) sessionStorage.setItem(CLE, jeton);
      this.afficher(false, "");
      this.montrerPortee("Connecté : " + portee(moi) + ".");
      this.effacerRefus();
      this.onReady();
    }

    // effacerRefus clears what the console showed of the refusal of the
    // token just replaced (« jeton révoqué » in its message line): stale
    // once a good token is entered.
    effacerRefus() {
      if (!this.refus) return;
      for (const e of document.querySelectorAll("#message, #etat")) {
        if (e.textContent.includes(this.refus)) e.textContent = "";
      }
      this.refus = "";
    }

    // montrerPortee shows what the signed-in token allows under the form.
    montrerPortee(texte) {
      let p = document.getElementById("session-portee");
      if (!p) {
        p = document.createElement("p");
        p.id = "session-portee";
        p.className = "session-portee";
        this.form.after(p);
      }
      p.textContent = texte;
      p.hidden = !texte;
    }

    // afficher shows or hides the sign-in form with a message.
    afficher(visible, message) {
      this.form.hidden = !visible;
      if (visible) this.form.elements.jeton.focus();
      const m = this.form.querySelector(".message");
      if (m) m.textContent = message;
      document.body.classList.toggle("hors-session", visible);
    }

    // deconnecter forgets the token and asks for another one.
    deconnecter(message) {
      this.jeton = "";
      sessionStorage.removeItem(CLE);
      this.montrerPortee("");
      if (this.ws) this.ws = null;
      this.afficher(true, message || "Session fermée : collez un jeton pour continuer.");
    }

    // query runs a query or mutation with the token. An UNAUTHENTICATED
    // answer signs out with a clear message; every error is rethrown with
    // its code (e.code) so the page can show it.
    async query(q, variables) {
      try {
        return await query(q, variables, this.jeton);
      } catch (e) {
        if (e.code === "UNAUTHENTICATED") {
          this.refus = e.message;
          this.deconnecter("Jeton expiré, révoqué ou inconnu : collez un jeton valide.");
        }
        throw e;
      }
    }

    // live opens the websocket with the token in connection_init.
    live(onStatus) {
      return new Live(this.jeton, onStatus);
    }
  }
