// The chrono of a coup (règlement duplicate 2020 §1.3, §3.3), shared by the
// hall display and the director's console: every screen shows the chrono the
// server computes from the game's events (Partie.chrono), moving on by itself
// between two updates. A screen's clock may be wrong: the offset between it
// and the server is taken from the server's time carried in each reading
// (heureServeur), so the screen's own clock only measures the time since.
//
//   const chrono = new Chrono(element);  // renders every 200 ms
//   chrono.recevoir(partie.chrono);      // on each update
//
// The element gets the time left (m:ss) in its .temps child, its state in
// data-etat (arrete, en_cours, en_pause, ecoule, termine) and the class
// "alerte" in the last 30 seconds (20 in blitz: §3.3 « trente (ou vingt)
// secondes », guide §2.17.6), "fini" once the time is over.

  const LIBELLES = {
    arrete: "chrono prêt", en_cours: "", en_pause: "pause", ecoule: "temps écoulé", termine: "terminé",
  };

  export class Chrono {
    constructor(element) {
      this.element = element;
      this.c = null;
      this.decalage = 0;
      if (element) setInterval(() => this.rendre(), 200);
    }

    // recevoir takes a reading of Partie.chrono and the offset of this
    // screen's clock from the server's.
    recevoir(c) {
      if (!c) return;
      this.c = c;
      this.decalage = Date.parse(c.heureServeur) - Date.now();
      this.rendre();
    }

    // heureServeur is the server's time now, as this screen estimates it.
    heureServeur() {
      return Date.now() + this.decalage;
    }

    // lire is the chrono now: { etat, ecouleMs, restantMs, alerte, texte }.
    lire() {
      const c = this.c;
      if (!c) return null;
      const total = c.tempsAccordeSecondes * 1000;
      let etat = c.etat;
      let ecoule = c.ecouleMs;
      if (etat === "en_cours" || etat === "ecoule") {
        ecoule += Math.max(0, this.heureServeur() - Date.parse(c.heureServeur));
      }
      ecoule = Math.min(ecoule, total);
      const restant = total - ecoule;
      if (etat === "en_cours" && restant <= 0) etat = "ecoule";
      return {
        etat, ecouleMs: ecoule, restantMs: restant,
        alerte: (etat === "en_cours" || etat === "en_pause") && restant <= c.alerteSecondes * 1000,
        texte: Chrono.texte(restant),
      };
    }

    rendre() {
      const l = this.lire();
      if (!this.element || !l) return;
      const el = this.element;
      el.dataset.etat = l.etat;
      el.dataset.restant = String(Math.ceil(l.restantMs / 1000));
      el.classList.toggle("alerte", l.alerte);
      el.classList.toggle("fini", l.etat === "ecoule" || l.etat === "termine");
      el.querySelector(".temps").textContent = l.texte;
      const libelle = el.querySelector(".libelle");
      if (libelle) libelle.textContent = LIBELLES[l.etat] || "";
    }

    // texte writes milliseconds left as m:ss, rounded up to the second.
    static texte(ms) {
      const s = Math.ceil(Math.max(0, ms) / 1000);
      return Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0");
    }
  }

  // The fields of Partie.chrono a page asks for.
  Chrono.CHAMPS = "chrono { coup etat tempsAccordeSecondes ecouleMs restantMs alerteSecondes heureServeur }";
