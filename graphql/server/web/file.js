// File: a queue of mutations that survives a network cut and a reload, for
// any console. Each entry is fixed when it is typed — its query, its
// variables and its clientMutationId — and kept in localStorage until the
// server answers; sending it again after a lost answer is harmless, since
// the server applies a clientMutationId once (docs/securite.md,
// idempotence). Entries go out in order, one at a time; a network failure
// (no answer, a cut answer, RATE_LIMITED) stops the run and it is tried
// again later, and so does UNAUTHENTICATED (the entry waits for a valid
// token); any other answer, done or refused, removes the entry and is
// reported, and the later entries of its group (e.groupe) are dropped with
// it. The key names the token's id (not its secret) and the game: a tab
// signed in with another token does not pick up these entries.
//
// Usage:
//   const file = new File("arbitre.file.<jeton>.<partie>",
//     (entree) => session.query(entree.query, entree.variables),
//     { change: (entrees) => ..., fait: (entree, data) => ..., refus: (entree, err) => ... });
//   file.ajouter([{ query, variables, groupe }]);  // variables.clientMutationId is set here;
//                                                  // entries of one groupe stand or fall together
//   file.entrees                                    // what is still waiting
import { cleAction } from "./actions.js";

  export class File {
    constructor(cle, envoyer, rappels) {
      this.cle = cle;
      this.envoyer = envoyer;
      this.rappels = Object.assign({ change() {}, fait() {}, refus() {} }, rappels);
      this.entrees = this.lire();
      this.encours = false;
      this.delai = 500;
      this.minuteur = null;
      window.addEventListener("online", () => this.vider());
    }

    lire() {
      try {
        return JSON.parse(localStorage.getItem(this.cle) || "[]");
      } catch (e) {
        return [];
      }
    }

    ecrire() {
      if (this.entrees.length) localStorage.setItem(this.cle, JSON.stringify(this.entrees));
      else localStorage.removeItem(this.cle);
      this.rappels.change(this.entrees);
    }

    // ajouter queues entries together (all written at once) and sends.
    ajouter(entrees) {
      for (const e of entrees) {
        e.variables = Object.assign({}, e.variables);
        if (!e.variables.clientMutationId) e.variables.clientMutationId = cleAction("saisie");
        this.entrees.push(e);
      }
      this.ecrire();
      this.vider();
    }

    // reessayer tells a failure to reach the server (or a missing token)
    // from a refusal.
    static reessayer(err) {
      return !err.code || err.code === "RATE_LIMITED" || err.code === "UNAUTHENTICATED";
    }

    // vider sends the waiting entries in order until the queue is empty or
    // the network fails; then it tries again later, backing off to 5 s.
    async vider() {
      if (this.encours) return;
      this.encours = true;
      clearTimeout(this.minuteur);
      try {
        while (this.entrees.length) {
          const e = this.entrees[0];
          try {
            const data = await this.envoyer(e);
            this.entrees.shift();
            this.ecrire();
            this.rappels.fait(e, data);
          } catch (err) {
            if (File.reessayer(err)) {
              this.minuteur = setTimeout(() => this.vider(), this.delai);
              this.delai = Math.min(this.delai * 2, 5000);
              return;
            }
            // The entries of one group stand or fall together: a refused
            // bulletin is not corrected.
            this.entrees = this.entrees.slice(1).filter((x) => !e.groupe || x.groupe !== e.groupe);
            this.ecrire();
            this.rappels.refus(e, err);
          }
          this.delai = 500;
        }
      } finally {
        this.encours = false;
      }
    }
  }
