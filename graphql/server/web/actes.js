// Who did what and when, for the commission's pages: the replay's journal of
// a coup and an appeal's history are both lists of acts { quand, type,
// acteur, role, qui }. Each act is a French sentence naming who acted (qui:
// the token's label, else its role), « Marie Dupont (arbitre des tables
// 1-4) a saisi 12 bulletins. »: consecutive acts of one kind by one actor
// are grouped (a coup of 300 players records 300 bulletins).
//
//   tbody.replaceChildren(...lignesActes(actes));
import { ligne } from "./gql.js";

  const heure = (q) => new Date(q).toLocaleTimeString("fr-FR");

  // What each event type says, once and n times; an unknown type is said
  // by its name.
  const un = (phrase) => () => phrase;
  const compte = (seul, plusieurs) => (n) => (n > 1 ? plusieurs.replace("N", n) : seul);
  const ACTES = {
    "partie.creee": un("a créé la partie"),
    "partie.feuille_pretiree_chargee": un("a chargé la feuille prétirée"),
    "partie.tirage_effectue": un("a effectué le tirage"),
    "partie.tirage_rejete": un("a rejeté le tirage"),
    "partie.chrono_demarre": un("a lancé le chrono"),
    "partie.chrono_suspendu": un("a mis le chrono en pause"),
    "partie.chrono_repris": un("a repris le chrono"),
    "partie.top_retenu": un("a annoncé le top"),
    "partie.coup_annule": un("a annulé le coup"),
    "partie.bulletins_ramasses": un("a ramassé les bulletins"),
    "partie.bulletin_depose": compte("a saisi un bulletin", "a saisi N bulletins"),
    "partie.bulletin_corrige": compte("a corrigé un bulletin", "a corrigé N bulletins"),
    "partie.double_arbitrage": compte("a contre-arbitré un bulletin", "a contre-arbitré N bulletins"),
    "partie.billet_emis": compte("a remis un billet de correction", "a remis N billets de correction"),
    "partie.renvoi_commission": compte("a renvoyé un bulletin en commission", "a renvoyé N bulletins en commission"),
    "partie.decision_commission": compte("a porté la décision de la commission sur le bulletin", "a porté N décisions de la commission sur les bulletins"),
    "partie.sanction_disciplinaire": compte("a prononcé une sanction disciplinaire", "a prononcé N sanctions disciplinaires"),
    "partie.top_trouve": compte("a noté un temps de topping", "a noté N temps de topping"),
    "partie.joueur_arrive": compte("a ajouté un joueur en retard", "a ajouté N joueurs en retard"),
    "partie.joueur_retire": compte("a retiré un joueur ajouté par erreur", "a retiré N joueurs ajoutés par erreur"),
    "partie.interrompue": un("a interrompu la partie"),
    "partie.reprise": un("a repris la partie"),
    "partie.eliminations_decidees": un("a décidé les éliminations"),
    "partie.eliminations_annulees": un("a annulé les éliminations"),
    "partie.terminee": un("a terminé la partie (§3.7)"),
    "partie.resultats_clos": un("a clos les résultats"),
    "appel.depose": un("a déposé l'appel"),
    "appel.pieces_demandees": un("a demandé des pièces"),
    "appel.dossier_complete": un("a complété le dossier"),
    "appel.commission_composee": un("a composé la commission"),
    "appel.vote_emis": compte("a enregistré un vote", "a enregistré N votes"),
    "appel.decision_rendue": un("a rendu la décision"),
    "appel.decision_appliquee": un("a porté la décision sur le bulletin"),
    "appel.classe": un("a classé l'appel"),
    "appel.recours_fisf_forme": un("a formé le recours devant la FISF"),
  };

  export function phraseActe(a, n) {
    const dit = ACTES[a.type];
    const quoi = dit ? dit(n) : `${a.type}${n > 1 ? ` ×${n}` : ""}`;
    const qui = a.qui || a.acteur;
    return `${qui.charAt(0).toUpperCase()}${qui.slice(1)} ${quoi}.`;
  }

  export function lignesActes(actes) {
    const groupes = [];
    for (const a of actes) {
      const g = groupes[groupes.length - 1];
      if (g && g.type === a.type && g.acteur === a.acteur && g.role === a.role) {
        g.n++;
        g.fin = a.quand;
      } else {
        groupes.push({ ...a, n: 1, fin: a.quand });
      }
    }
    return groupes.map((g) => ligne([
      [g.n > 1 && heure(g.fin) !== heure(g.quand) ? `${heure(g.quand)} – ${heure(g.fin)}` : heure(g.quand)],
      [phraseActe(g, g.n)]]));
  }
