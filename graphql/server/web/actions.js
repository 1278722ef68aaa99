// What every action of the consoles needs, written once: the confirmation of
// the actions that cannot be undone (a top announced, a ramassage, an
// annulled coup, a registration...) and the idempotency key of each action.
//
// The confirmation is a dialog built once per page, with stable ids:
// #confirmation (the dialog), #confirmation-question, #confirmer-oui and
// #confirmer-non; the rest of the page is inert while it is open. Enter
// confirms (the focus is on « Confirmer »), Escape cancels.
//
//   if (await confirmer("Annoncer le top BAC en H8 ?")) { ... }
//
// cleAction(prefixe) is a fresh clientMutationId: a retried request
// is applied once by the server. crypto.getRandomValues works outside
// secure contexts too (a hall's server on a LAN address, plain http), where
// crypto.randomUUID does not exist. message(texte, erreur) shows the
// outcome of an action in the page's #message, in red for an error.

  let dialogue = null;
  let enCours = null; // { autres, resolve } while a question is open

  // terminer closes the dialog and gives the page back at once (not on the
  // dialog's asynchronous close event), so the next click is not lost on a
  // page still inert.
  function terminer(oui) {
    if (!enCours) return;
    const { autres, resolve } = enCours;
    enCours = null;
    for (const el of autres) el.inert = false;
    dialogue.close();
    resolve(oui);
  }

  function construire() {
    const d = document.createElement("dialog");
    d.id = "confirmation";
    const q = document.createElement("p");
    q.id = "confirmation-question";
    const oui = document.createElement("button");
    oui.id = "confirmer-oui";
    oui.type = "button";
    oui.textContent = "Confirmer";
    const non = document.createElement("button");
    non.id = "confirmer-non";
    non.type = "button";
    non.textContent = "Annuler";
    oui.addEventListener("click", () => terminer(true));
    non.addEventListener("click", () => terminer(false));
    d.addEventListener("keydown", (ev) => {
      if (ev.key === "Escape") {
        ev.preventDefault();
        terminer(false);
      }
    });
    d.append(q, oui, " ", non);
    document.body.appendChild(d);
    return d;
  }

  export function message(texte, erreur) {
    const m = document.getElementById("message");
    m.textContent = texte;
    m.className = "message " + (erreur ? "erreur" : "ok");
  }

  export function cleAction(prefixe) {
    const octets = crypto.getRandomValues(new Uint8Array(12));
    return (prefixe || "action") + "-" + Array.from(octets, (o) => o.toString(16).padStart(2, "0")).join("");
  }

  export function confirmer(question) {
    dialogue = dialogue || construire();
    terminer(false);
    dialogue.querySelector("#confirmation-question").textContent = question;
    const autres = [...document.body.children].filter((el) => el !== dialogue && !el.inert);
    return new Promise((resolve) => {
      enCours = { autres, resolve };
      for (const el of autres) el.inert = true;
      dialogue.show();
      dialogue.querySelector("#confirmer-oui").focus();
    });
  }
