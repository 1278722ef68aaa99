// Session: the signed-in side of the consoles (director, arbiter, TD,
// commission). One token per tab: typed or pasted once into the page's
// sign-in form, kept in this tab's sessionStorage until the tab closes, and
// sent only in the Authorization header and in the websocket's
// connection_init — never in an address (it would reach logs and history).
// A token an older version left in localStorage is forgotten.
//
// Usage:
//   const session = new Arbitre.Session("Jeton du directeur", () => demarrer());
//   const data = await session.query(QUERY, vars);   // throws on error
//   const live = session.live((enDirect) => ...);     // Arbitre.Live with the token
//
// The sign-in form (#connexion, its #jeton and .message) is built here, once
// per page, under the page's header, labelled as given. On UNAUTHENTICATED (expired, revoked or
// unknown token) the token is dropped and the form shown again with a French
// message; onReady runs again once a new token is entered.
"use strict";

(function () {
  const Arbitre = window.Arbitre || (window.Arbitre = {});
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

  Arbitre.Session = class {
    constructor(libelle, onReady) {
      const form = formulaire(libelle);
      this.form = form;
      this.onReady = onReady;
      localStorage.removeItem(CLE);
      this.jeton = sessionStorage.getItem(CLE) || "";
      form.addEventListener("submit", (ev) => {
        ev.preventDefault();
        const v = form.elements.jeton.value.trim();
        if (!v) return;
        this.jeton = v;
        sessionStorage.setItem(CLE, v);
        form.elements.jeton.value = "";
        this.afficher(false, "");
        this.onReady();
      });
      if (this.jeton) {
        this.afficher(false, "");
        queueMicrotask(() => this.onReady());
      } else {
        this.afficher(true, "Collez votre jeton pour commencer.");
      }
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
      if (this.ws) this.ws = null;
      this.afficher(true, message || "Session fermée : collez un jeton pour continuer.");
    }

    // query runs a query or mutation with the token. An UNAUTHENTICATED
    // answer signs out with a clear message; every error is rethrown with
    // its code (e.code) so the page can show it.
    async query(q, variables) {
      try {
        return await Arbitre.query(q, variables, this.jeton);
      } catch (e) {
        if (e.code === "UNAUTHENTICATED") {
          this.deconnecter("Jeton expiré, révoqué ou inconnu : collez un jeton valide.");
        }
        throw e;
      }
    }

    // live opens the websocket with the token in connection_init.
    live(onStatus) {
      return new Arbitre.Live(this.jeton, onStatus);
    }
  };
})();
