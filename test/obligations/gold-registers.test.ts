/**
 * The engine's registers against the gold registers (eval/registers/README.md): written from the act
 * texts and the profiles alone, by a reader who never saw the engine. At article level, on the newest
 * built eu release: precision ≥ 97 % and recall ≥ 95 %, and every article on which the two still differ
 * is listed in the gold file's `disagreements` with its reason.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { before, describe, test } from "node:test";
import {
  adjudicatedProfiles,
  adjudicatedRegister,
  disputed,
  readAdjudication,
} from "../../eval/registers/adjudicated.ts";
import { compare, goldProfiles, readGold, SECOND_DIR } from "../../eval/registers/compare.ts";
import { type LoadedRelease, loadRelease } from "../../src/release/load.ts";
import { newestBuilt, releaseDir } from "../../src/release/releases.ts";

const ROOT = join(import.meta.dirname, "..", "..");

/**
 * Profiles whose register does not yet meet the targets, with why (each figure is in
 * docs/obligations.md, "Gold registers"). A profile leaves this list when it meets them; its target
 * test is then a failure, not a todo.
 */
export const SHORTFALLS: Record<string, string> = {
  "fi-qualified-trust-service-provider":
    "dev profile (twelfth session, at its end; two readers who saw only the law, each in three parts: eIDAS, NIS2 and the cyber acts; GDPR, ePrivacy, the Data Act, PSD2, the DSA and the AI Act; the 38 others): precision 66.0 %, recall 85.4 % at first comparison (before any tuning on it); 84.8 % / 95.1 % once eIDAS bound a trust service provider by the services it provides and a qualified certificate's or time stamp's requirements were the issuing provider's (Arts 15, 28, 38, 42); left: GDPR duties conditioned on a kind of processing (Arts 7, 9, 10, 11, 22, 35, 36), which this reader leaves undetermined and the engine binds for every controller, and the payer's and payee's PSD2 duties; each is listed with its reason in the gold file",
  "nl-investment-firm":
    "dev profile (twelfth session; two readers who saw only the law, each in three parts: MiFID II and MiFIR; DORA and its ten acts; the 36 others): precision 83.2 %, recall 93.9 % at first comparison (before any tuning on it); 98.6 % / 94.6 % once MiFID II and MiFIR bound each party in its own titles (trading venues and market operators, systematic internalisers, data reporting services providers) and the investment firm's duties for algorithmic trading, tied agents, eligible counterparties, branches, commodity-derivative positions, post-trade publication outside venues, portfolio compression and authorisation applications turned on facts, 'shall further ensure that' prescribed conduct (MiFID II Art 75(1)), a measure involving sanctions on a party was not its duty (Art 86(4)) and which provisions also apply to whom was a rule about the act (Art 1(3)-(4)); left: the payer's and payee's PSD2 duties, ePrivacy Art 5, the voluntary cyber-threat notification's templates (undetermined), DORA Art 22, Data Act Art 19 and Taxonomy Art 25; each is listed with its reason in the gold file",
  "lu-private-equity-aifm":
    "dev profile (twelfth session; two readers who saw only the law, each in three parts: AIFMD, SFDR, the Taxonomy, MiFID II and MiFIR; DORA and its ten acts; the 33 others): precision 89.0 %, recall 93.8 % at first comparison (before any tuning on it); 96.6 % / 97.9 % once AIFMD's parts for small AIFMs, AIFs in other Member States, non-EU AIFs and AIFMs and retail marketing, and SFDR's product duties (Arts 8-11), turned on the profile, AIFMD Art 61(1)'s transitional duty ended in 2014, a Member State's requirement named a party set off by commas (AIFMD Arts 10(1), 30(1)), a noun's 'that must' was a relative clause (Art 17(b)), which authority supervises stated no duty (Art 45), and what a financial product's disclosures contain was the financial market participant's (SFDR Art 7, Taxonomy Arts 5-7); left: Data Act Chapter V, which this reader leaves undetermined, Taxonomy Art 25 (its amendments to SFDR), AIFMD Art 8 and the DORA articles this reader alone binds (Art 22, RTS 2024/1772 Art 10); each is listed with its reason in the gold file",
  "pt-mobile-network-operator":
    "dev profile (twelfth session; two readers who saw only the law, each in three parts: EECC, ePrivacy and the DSA; NIS2, GDPR, the Data Act and the cyber acts; the 35 others): precision 72.0 %, recall 78.7 % at first comparison (before any tuning on it); 97.1 % / 88.0 % once DSA Chapter III Sections 2-4 bound only hosting services, platforms and marketplaces (a mere conduit got their duties through a bare 'the provider'), EECC duties of SMP undertakings, of the notification a Member State may require, of accounting separation and of social tariffs turned on the profile, measures imposed on providers (administrative charges, conditions, dispute obligations) were no longer their duties, 'shall not apply any different requirements' was read as conduct (EECC Art 99), the rights ePrivacy and the EECC give subscribers and end-users were owed by the providers (ePrivacy Arts 7, 11, 12; EECC Art 109), Taxonomy Art 8 followed CSRD's stages, and the profile stated the large-scale monitoring its description implies (GDPR Art 37(1)(b), WP 243); left: EECC duties an authority ensures (Arts 56, 103), set by a delegated act outside the corpus (Art 75), or owed on an event (Arts 26, 51), EECC Art 111, ePrivacy Arts 10 and 13, GDPR Art 29 and CSRD Art 3; each is listed with its reason in the gold file",
  "be-large-cocoa-processor":
    "dev profile (eleventh session, at its end; two readers who saw only the law, each in three parts: the sustainability acts; GDPR, NIS2, CER and ePrivacy; the 38 others): precision 89.7 %, recall 74.5 % at first comparison (before any tuning on it); nothing was tuned on it. Nine of the twelve articles missed are EUDR's, which the engine dates from 30 December 2026 for large operators as Regulation (EU) 2025/2650 amended Art 38(2), and the readers, by their brief, from the corpus text's 30 December 2024; left besides: ePrivacy Art 5, the payer's and payee's PSD2 duties (Arts 62, 69), CSRD Art 3, Data Act Art 19(3) and GDPR Arts 35-36; each is listed with its reason in the gold file; 89.5 % / 72.3 % in the twelfth session once CSRD's stages by category of undertaking held Article 1 back until 2027 for a large undertaking that is not a public-interest entity (Art 5(2)(b) as Directive (EU) 2025/794 moved it; the readers graded the adopted text's 2025)",
  "cz-medium-machinery-manufacturer":
    "dev profile (eleventh session; two readers who saw only the law, each in three parts: the product acts; the Data Act, CBAM, NIS2 and the cyber acts; the 36 others): precision 79.0 %, recall 79.0 % at first comparison (before any tuning on it); 89.7 % / 98.4 % once Machinery Chapter VI applied from 19 July 2023 to machines placed under Directive 2006/42/EC (Art 52(1)), RED Arts 4, 5 and 9(2) and CBAM Arts 9 and 23 turned on facts, Data Act Art 37(11)-(13) on establishment outside the Union, the CE marking's principles were the affixer's duty (RED Art 19(1)), a saving clause before a condition no longer hid a Member State's duty to require the economic operator's conduct (RED Art 43, Machinery Art 46), the parties to a data contract were named (Data Act Art 13(9)), and the profile stated the declarant status and terminal-equipment access its description implies; left: GDPR duties conditioned on a kind of processing (Arts 7, 11, 28, 35, 36), CBAM Art 17(3)'s refusal decision and RED Art 12(3)'s contact details (holders read wrongly); each is listed with its reason in the gold file; 89.9 % / 100 % once 'take appropriate measures to ensure that' prescribed the conduct that follows as 'ensure that' does (RED Art 6: radio equipment made available only if it complies), and a Member State's market measure after the safeguard procedure stayed the State's (RED Art 41(2))",
  "ie-critical-cloud-provider":
    "test profile, held out (tenth session; two readers who saw only the law: DORA and its ten acts; NIS2, the Data Act and ten other digital acts; GDPR and the 25 others): precision 89.9 %, recall 80.5 % at first comparison, on the engine as the session began; its article lists are unread",
  "ee-small-token-offeror":
    "dev profile (tenth session; two readers who saw only the law: MiCA; the 48 others): precision 78.7 %, recall 92.5 % at first comparison (before any tuning on it); 97.4 % / 92.5 % once the MiCA Art 4(2) exemptions lifted the white paper's own articles (Arts 6, 8(1) and (4)-(6), 9, 12, 15; unless one is drawn up voluntarily, Art 4(8)) and Title VI on market abuse turned on acts concerning crypto-assets admitted to trading (Art 86(1)); left: Data Act Art 20 and ePrivacy Art 5, each undetermined on a fact the reader takes as given, GDPR Art 29 and MiCA Art 109(2); each is listed with its reason in the gold file; 100 % / 92.5 % in the eleventh session once a thing in a paragraph about ESMA's register was ESMA's (MiCA Art 109(2): out-of-date white papers are archived in the register, not by the offeror)",
  "nl-micro-high-risk-ai-provider":
    "dev profile: precision 73.2 %, recall 91.2 % at first comparison (before any tuning on it), 86.7 % / 91.2 % under extraction rules 4-5 and 6, 88.1 % / 91.2 % under rules 7 (AI Act Art 62(2) weighs the SMEs' interests, it is not their duty), 88.3 % / 93.0 % under rules 8 (AI Act Art 74(12): access granted “by providers” is the provider's duty), 93.0 % / 93.0 % once scope parts named the facts AI Act Arts 36(8)-(9), 78(3) and 111 turn on; left: GDPR articles the readers disagree on (Arts 7, 10, 22, 60) and Data Act Chapter V; each is listed with its reason in the gold file; then 93.4 % / 100 % once Data Act Chapter V reached every legal person holding the data a public body asks for (Art 14; this reader and the fr, it and de readers bind it); 95.0 % / 100 % once GDPR Art 60 turned on whether the firm carries out cross-border processing (Arts 4(23), 56(1); read from the it reader's fact; every reader had left Art 60 out); GDPR Art 29 left the registers of controllers that are no processors in the eighth session (its holders are the processor and the staff under either's authority; read on the es, fr, it and ie dev registers and the text): 94.9 % / 98.2 % (this reader binds it)",
  "at-small-medical-device-manufacturer":
    "test profile, frozen before any tuning: precision 74.6 %, recall 94.3 % at first comparison, 80.6 % / 94.3 % under rules 4-5, 81.0 % / 96.2 % under rules 6 (held out while they were tuned; MDR Art 7, an impersonal prohibition, now binds); under rules 8 as first written 79.7 % / 96.2 % (MDR Art 121 bound: “the storage … of the UDI by economic operators” read as the duty's agent), 81.0 % / 96.2 % after an agent following an “of” complement was excluded, a fix this profile's comparison prompted; then 83.9 % / 98.1 % in the fifth session, not a clean held-out figure: the MDR parts on distance sales (Art 6) and third-country manufacturers (Art 11) mirror those read from the IVDR on the new dev profile, and the rule that gave MDR Art 90 its holder was read from IVDR Art 85 on that profile while this entry already named Art 90 as a miss; before, twelve articles over-included (thing-subject sentences inheriting the preceding duty's holder, class- and type-specific MDR duties without a canon fact for device class or implantability, definitions and procedural guarantees read as duties) and two missed (MDR Arts 58, 90: relative-clause holders); each is listed with its reason in the gold file; then 78.8 % / 98.1 % once Data Act Chapter V reached every legal person holding the data a public body asks for (read on the dev registers; held out: this reader does not bind Chapter V, the entries say so); 80.0 % / 98.1 % once a thing its paragraph has just put a party in charge of is that party's (read on it, IVDR Art 16(3); MDR Art 16(3) is the same text); 81.2 % / 98.1 % once a right held against another passed no duty on to the things after it (read on it, IVDR Art 94(3); MDR Art 99(3) is the same text); 81.5 % / 100 % once what is defined in an agreement between parties was the first party's (read on it, IVDR Art 53; MDR Art 58 is the same text and this entry named it as a miss, so the figure is not a clean held-out one); 82.8 % / 100 % once GDPR Art 60 turned on whether the firm carries out cross-border processing (Arts 4(23), 56(1); read from the it reader's fact; every reader had left Art 60 out) (held out in that nothing was tuned on it; its disagreement list named Art 60 before); unchanged at 82.8 % / 100 % in the sixth session; GDPR Art 29 left the registers of controllers that are no processors in the eighth session (its holders are the processor and the staff under either's authority; read on the es, fr, it and ie dev registers and the text): 84.1 % / 100 %, held out (this reader does not bind it)",
  "de-large-bank":
    "test profile, frozen before any tuning: precision 86.7 %, recall 62.4 % at first comparison, 89.4 % / 85.4 % under rules 4-5 (after the profile stated the payment-service facts its description implies), 89.9 % / 85.4 % under rules 6 (held out while they were tuned; PSD2 Art 43, an exemption, no longer binds), 91.0 % / 85.4 % after scope parts read on the dev profiles (AI Act Art 111, DORA ITS 2024/2956 Art 6: held out), 91.1 % / 86.0 % after rules 8 named long subjects by their head (ITS 2025/302 Art 3 now binds: held out), 91.1 % / 86.5 % after the actor map gave DORA's testing programme to the financial entities (Art 25 binds: held out); recall is lost on PSD2 articles written with the user, payer or payee as subject, on Data Act Chapter V, whose act rule is too narrow, and ePrivacy Art 5(3), now undetermined on a fact the reader took as given, and on DORA incident-reporting ITS articles with thing-subjects; each is listed with its reason in the gold file; then 91.3 % / 88.8 % once Data Act Chapter V reached every legal person holding the data a public body asks for (read on the dev registers; held out: this reader binds it); 91.9 % / 88.8 % once GDPR Art 60 turned on whether the firm carries out cross-border processing (Arts 4(23), 56(1); read from the it reader's fact; every reader had left Art 60 out) (held out in that nothing was tuned on it; its disagreement list named Art 60 before); 93.5 % / 89.3 % in the sixth session, held out (nothing was read on this profile; four of its listed disagreements came to agree as side effects of readings made on the es and ie dev registers: Taxonomy Art 18, NIS2 Arts 27 and 29, PSD2 Art 74); 93.6 % / 89.9 % in the eighth session, held out (PSD2 Art 59 now binds as a side effect of the Art 59(2) subject read on the lt dev register); GDPR Art 29 left the registers of controllers that are no processors in the eighth session (its holders are the processor and the staff under either's authority; read on the es, fr, it and ie dev registers and the text): 93.5 % / 89.3 %, held out (this reader binds it); 93.6 % / 89.9 % once PSD2 Art 64(1) did (read on lt; held out); 94.1 % / 89.9 % in the tenth session, held out: PSD2 Art 115(6) now binds account servicing providers, a side effect of the leading-clause rule read on PSD2 Art 44(1) for the dev profiles (listed, not tuned)",
  "fr-crypto-asset-service-provider":
    "dev profile, written in the fourth session by three readers who saw only the law (MiCA; DORA and its ten acts; GDPR and the rest): precision 78.3 %, recall 93.7 % at first comparison (before any tuning on it), 92.9 % / 92.9 % once MiCA's scope parts named the facts its titles and service articles turn on, 93.0 % / 93.7 % once the actor map gave DORA's testing programme to the financial entities (Art 25(1)); left: proportionality clauses the reader reads as modifications (DORA Art 4, RTS Arts 1), duties the reader leaves undetermined on facts the canon lacks (DORA Arts 29, 42), GDPR and Data Act articles the readers disagree on, ePrivacy Art 5(3) and MiCA Arts 40(2), 50(2); each is listed with its reason in the gold file; then 93.2 % / 96.9 % once Data Act Chapter V reached every legal person holding the data a public body asks for (Art 14; this reader binds it); 93.9 % / 96.9 % once GDPR Art 60 turned on whether the firm carries out cross-border processing (Arts 4(23), 56(1); read from the it reader's fact; every reader had left Art 60 out); GDPR Art 29 left the registers of controllers that are no processors in the eighth session (its holders are the processor and the staff under either's authority; read on the es, fr, it and ie dev registers and the text): 94.6 % / 96.9 %",
  "lt-micro-payment-institution":
    "dev profile: precision 92.7 %, recall 95.3 % under rules 4-5, 93.5 % / 95.3 % under rules 6, 94.4 % / 95.3 % under rules 8 (PSD2 Art 14), 97.1 % / 95.3 % once scope parts named the facts DORA ITS 2024/2956 Art 6 and PSD2 Art 109 turn on (the targets held), then 97.1 % / 94.3 % when RTS 2024/1772 Art 8(2)'s own exemption of microenterprises and Art 16(1) entities entered the canon: the reader binds Art 8 by its first paragraph, a classification the engine reads as no duty; 98.0 % / 94.3 % once PSD2 Art 78's agreed start and moment of receipt stated no duty and the payer's account was its servicing provider's; left: a conditional PSD2 provision without a fact (Art 77), classification thresholds, and PSD2 subjects the extractor cuts; each is listed with its reason in the gold file; then 94.3 % / 94.3 % once Data Act Chapter V reached every legal person holding the data a public body asks for (Art 14, modified by Art 15(2) for micro and small enterprises): this reader leaves the Data Act undetermined on whether a request is received, the nl, fr, it and de readers bind it; 95.2 % / 94.3 % once GDPR Art 60 turned on whether the firm carries out cross-border processing (Arts 4(23), 56(1); read from the it reader's fact; every reader had left Art 60 out); 95.3 % / 95.3 % in the sixth session once a subject of parties joined by 'and' named each (PSD2 Art 61: the payment service user and the payment service provider); 96.2 % / 96.2 % in the eighth session once the party offering currency conversion was the payee or a provider (PSD2 Art 59(2), which the reader binds) and payee-initiated refunds turned on holding the payer's account or issuing its instrument (Art 77, which the reader leaves out); GDPR Art 29 left the registers of controllers that are no processors in the eighth session (its holders are the processor and the staff under either's authority; read on the es, fr, it and ie dev registers and the text): 96.2 % / 95.3 % (this reader binds it); 96.2 % / 96.2 % once PSD2 Art 64(1)'s rule on consent governed the provider's conduct through national law (this reader's entry said the engine was wrong)",
  "it-small-ivd-manufacturer":
    "dev profile (fifth session): precision 79.4 %, recall 86.2 % at first comparison (before any tuning on it), 86.4 % / 87.9 % once IVDR class parts (Arts 29, 80, 81), facts for distance sales and devices for performance study, third-country manufacturers (Art 11), the act's own names and governing-law clauses read as no duty (Art 1) and a duty passed on to the party informed (Art 85) were read from the text; left: GDPR articles the readers disagree on (Arts 29, 35, 36, 82) and AI Act Art 5; each is listed with its reason in the gold file; then 87.3 % / 94.8 % once Data Act Chapter V reached every legal person holding the data a public body asks for (Art 14; this reader binds it); 88.7 % / 94.8 % once a thing its paragraph has just put a party in charge of is that party's (Art 16(3): the relabelling distributor's quality management system); 90.2 % / 94.8 % once a right held against another passed no duty on to the things after it (Art 94(3): 'Any measure adopted shall be withdrawn' is the authority's, not the economic operator's whose right to be heard precedes it); 90.3 % / 96.6 % once what is defined in an agreement between parties was the first party's (Art 53: the manufacturer changing notified body); 91.8 % / 96.6 % once devices that are also machinery (Art 1(6)) turned on a fact; 93.3 % / 96.6 % once GDPR Art 60 turned on whether the firm carries out cross-border processing (Arts 4(23), 56(1); read from the it reader's fact; every reader had left Art 60 out); GDPR Art 29 left the registers of controllers that are no processors in the eighth session (its holders are the processor and the staff under either's authority; read on the es, fr, it and ie dev registers and the text): 94.9 % / 96.6 %",
  "es-electricity-dso-essential-entity":
    "dev profile (sixth session; two readers who saw only the law: NIS2 and CER; the 47 others): precision 81.8 %, recall 78.3 % at first comparison (before any tuning on it); 90.5 % / 82.6 % once NIS2 Arts 27, 29, 32, 33, Taxonomy Art 18 and CER Chapters III-IV were scoped as their texts say, a critical entity was derived from its identification and NIS2 Art 20's management bodies acted for their entities; 90.9 % / 87.0 % once the profile stated the smart-meter monitoring its description implies (GDPR Art 37(1)(b), WP 243); left: PSD2 duties of payment service users (no canon fact yet), ePrivacy Art 5, Data Act Art 13 and GDPR articles the readers disagree on; each is listed with its reason in the gold file; GDPR Art 29 left the registers of controllers that are no processors in the eighth session (its holders are the processor and the staff under either's authority; read on the es, fr, it and ie dev registers and the text): 93.0 % / 87.0 %; 95.3 % / 89.1 % in the tenth session once the data protection officer's tasks were the designating controller's (GDPR Art 39; read on this register); 95.2 % / 87.0 % in the twelfth session once CSRD's stages by category of undertaking left Article 1 undetermined on whether the DSO is a public-interest entity (Art 5(2)(a)-(b) as Directive (EU) 2025/794 moved them; the readers graded the adopted text, under which it binds either way)",
  "ie-vlop-marketplace":
    "dev profile (sixth session; three readers who saw only the law: DSA; GDPR, DMA, AI Act, Data Act, ePrivacy, GPSR, PLD, DGA, eIDAS; the 39 others): precision 79.3 %, recall 82.3 % at first comparison (before any tuning on it); 82.3 % / 82.3 % once NIS2 Arts 27, 29, 32, 33 and DSA Arts 26(1), 39 were scoped as their texts say; 83.5 % / 83.5 % once a subject of parties joined by 'and' named each (GPSR Art 35) and legal effects stated no duty (DSA Art 33(4)); left: GDPR prohibitions this reader alone leaves undetermined (Arts 9, 10, 11, 22, 28), DSA duties owed on a Commission decision or request, PSD2 duties of payment service users and GPSR Art 36; each is listed with its reason in the gold file; then 83.8 % / 84.8 % once a pronoun after a conditional clause named a subject without article or with a citation in it (eIDAS Art 5f(3)), or a public body; 87.2 % / 86.1 % once the DSA duties that follow a crisis-response or non-compliance decision turned on a fact (Arts 36, 73, 75; as this reader has it) and the recall notice was the economic operators' and marketplaces' (GPSR Art 36, not the Commission's of Art 36(3)); GDPR Art 29 left the registers of controllers that are no processors in the eighth session (its holders are the processor and the staff under either's authority; read on the es, fr, it and ie dev registers and the text): 88.3 % / 86.1 %; 88.3 % / 86.1 % in the tenth session once a designated very large online platform, bound to accept European Digital Identity Wallets for the user authentication it requires (eIDAS Art 5f(3)), was a relying party (Art 5b; both readers bind it); 88.2 % / 84.8 % in the twelfth session once CSRD's stages by category of undertaking left Article 1 undetermined on whether the platform is a public-interest entity (Art 5(2)(a)-(b) as Directive (EU) 2025/794 moved them; the reader binds it 'either way' under the adopted text)",
  "pl-small-online-marketplace":
    "test profile, frozen before any tuning: precision 86.4 %, recall 92.7 % at first comparison, 92.7 % / 92.7 % under rules 4-5 and 6, 92.9 % / 95.1 % after rules 8 read a pronoun after a conditional clause as that clause's party (read from the second dev set of atom labels; DSA Art 18 now binds: held out); three articles over-included (protective and competence rules read as duties, Art 51 order details) and two missed (GPSR Arts 35-36, subjects the extractor cannot resolve); each is listed with its reason in the gold file; then 84.8 % / 95.1 % once Data Act Chapter V reached every legal person holding the data a public body asks for (read on the dev registers; held out: this reader does not bind Chapter V, the entries say so); 86.7 % / 95.1 % once a right held against another passed no duty on to the things after it (read on it, IVDR Art 94(3); DSA Art 51(3) now binds the coordinator, not the provider; not a clean held-out figure: this profile's article lists had been printed once this session, DSA Art 51 among them); 88.6 % / 95.1 % once GDPR Art 60 turned on whether the firm carries out cross-border processing (Arts 4(23), 56(1); read from the it reader's fact; every reader had left Art 60 out) (held out in that nothing was tuned on it; its disagreement list named Art 60 before); 88.9 % / 97.6 % in the sixth session once a subject of parties joined by 'and' named each, read on the ie dev register's GPSR Art 35 (not a clean held-out figure: this entry named GPSR Arts 35-36 as misses); 89.1 % / 100 % once the recall notice was the economic operators' and marketplaces' (GPSR Art 36, read on ie; not clean for the same reason); GDPR Art 29 left the registers of controllers that are no processors in the eighth session (its holders are the processor and the staff under either's authority; read on the es, fr, it and ie dev registers and the text): 88.9 % / 97.6 %, held out (this reader binds it)",
};

/** Gold registers being written when the session ended; the target is five (issue 13). */
const GOLD_PENDING =
  "one of the five gold registers (nl-micro-high-risk-ai-provider) was still being written by readers who see only the law when this was committed";

/** Gold registers delivered after the engine was frozen, whose disagreements are not yet read against the text. */
const UNREAD: Record<string, string> = {
  "ie-critical-cloud-provider":
    "test profile, held out: its disagreements with the engine are deliberately left unread, so that nothing is tuned on it",
};

describe("registers against the gold registers", () => {
  let release: LoadedRelease;
  before(() => {
    const record = newestBuilt(ROOT, "eu");
    assert.ok(record, "npm test builds eu first");
    release = loadRelease(releaseDir(ROOT, "eu", record.tag));
  });

  test(
    "there are at least five gold registers",
    goldProfiles().length >= 5 ? {} : { todo: GOLD_PENDING },
    () => {
      assert.ok(goldProfiles().length >= 5, goldProfiles().join(", "));
    },
  );

  for (const profile of goldProfiles()) {
    const unread = UNREAD[profile];
    test(
      `${profile}: every disagreement with the gold register is listed with its reason`,
      unread ? { todo: unread } : {},
      () => {
        const gold = readGold(profile);
        const c = compare(release, gold);
        assert.deepEqual(
          c.unexplained,
          [],
          `articles on which engine and gold differ, not listed in the gold file`,
        );
        assert.deepEqual(
          c.stale,
          [],
          "disagreements listed in the gold file on which engine and gold now agree",
        );
        assert.deepEqual(c.misstated, [], "disagreements that misstate what the engine says of the article");
        for (const d of gold.disagreements ?? [])
          assert.ok(d.reason.length > 20, `${d.article}: a reason a reviewer can check`);
      },
    );

    const shortfall = SHORTFALLS[profile];
    test(`${profile}: precision ≥ 97 % and recall ≥ 95 %`, shortfall ? { todo: shortfall } : {}, () => {
      const c = compare(release, readGold(profile));
      assert.ok(c.precision >= 0.97, `precision ${(c.precision * 100).toFixed(1)} %`);
      assert.ok(c.recall >= 0.95, `recall ${(c.recall * 100).toFixed(1)} %`);
    });
  }
});

describe("second readings of gold registers (eval/registers/agreement.ts)", () => {
  const actsOf = (g: ReturnType<typeof readGold>) =>
    [...(g.acts_not_applicable ?? []), ...(g.acts_undetermined ?? []), ...(g.acts ?? [])]
      .map((a) => a.act)
      .sort();
  for (const profile of goldProfiles(SECOND_DIR)) {
    test(`${profile}: the second reader decides every act the gold decides, each once`, () => {
      const second = actsOf(readGold(profile, SECOND_DIR));
      assert.deepEqual(second, [...new Set(second)], "an act decided twice");
      assert.deepEqual(second, actsOf(readGold(profile)));
    });
  }
});

/**
 * Adjudicated registers that do not yet meet the targets, with why (docs/obligations.md, "Gold
 * registers"). A profile leaves this list when it meets them.
 */
export const ADJUDICATED_SHORTFALLS: Record<string, string> = {
  "fi-qualified-trust-service-provider":
    "dev profile, read twice and adjudicated at the twelfth session's end (13 disputed articles): precision 66.0 %, recall 85.4 % at first comparison (before any tuning on it); 84.8 % / 95.1 % after the eIDAS readings listed in the single-reader entry; left: GDPR duties conditioned on a kind of processing (Arts 7, 10, 11, 22, 28, 35, 36), which this adjudicator leaves undetermined, and the payer's and payee's PSD2 duties (Arts 62, 69); each is listed with its reason",
  "pt-mobile-network-operator":
    "dev profile, read twice and adjudicated in the twelfth session (4 disputed articles): precision 73.2 %, recall 76.9 % at first comparison (before any tuning on it); 98.5 % / 85.9 % after the readings listed in the single-reader entry; left besides: the payer's and payee's PSD2 duties (Arts 62, 69); each is listed with its reason",
  "be-large-cocoa-processor":
    "dev profile, read twice and adjudicated at the eleventh session's end (6 disputed articles): precision 87.2 %, recall 73.9 % at first comparison; nothing was tuned on it. Nine misses are EUDR articles that the engine, following Regulation (EU) 2025/2650, dates from 30 December 2026 and the readers, by their brief, from the corpus text; left besides: ePrivacy Art 5, PSD2 Arts 62 and 69, Data Act Art 19(3) and GDPR Arts 11, 28, 35, 36; each is listed with its reason; 86.8 % / 71.7 % in the twelfth session once CSRD's stages by category of undertaking held Article 1 back until 2027 for a large undertaking that is not a public-interest entity (Art 5(2)(b) as Directive (EU) 2025/794 moved it; the readers graded the adopted text's 2025)",
  "cz-medium-machinery-manufacturer":
    "dev profile, read twice and adjudicated in the eleventh session (8 disputed articles): precision 79.0 %, recall 76.6 % at first comparison (before any tuning on it); 89.7 % / 95.3 % after the readings listed in the single-reader entry; left: GDPR duties conditioned on a kind of processing (Arts 7, 11, 28, 35, 36), which this adjudicator leaves undetermined, the payer's and payee's PSD2 duties (Arts 62, 69), CBAM Art 17, RED Arts 6 and 12; each is listed with its reason; 89.9 % / 96.9 % once RED Art 6 bound through national law",
  "fr-crypto-asset-service-provider":
    "dev profile, read a second time in the tenth session (three readers who saw only the law: MiCA; DORA and its ten acts; the 37 others) and adjudicated (7 disputed articles): precision 96.1 %, recall 96.9 % at first comparison, its first reader's file having been tuned on before; left: DORA's proportionality clauses (Art 4, the RTS Arts 1), which the fr readers read as modifications and the de and lt readings bind, GDPR Art 7 on consent, DORA Art 42, ePrivacy Art 5, GDPR Art 82 and MiCA's bans on interest (Arts 40(2), 50(2)) that wait for the firm's services in those tokens; each is listed with its reason",
  "ie-critical-cloud-provider":
    "test profile, held out, read twice and adjudicated in the tenth session: precision 87.0 %, recall 76.9 % at first comparison, on the engine as the session began; 89.6 % / 77.9 % at the thirteenth session's end; 86.6 % / 74.4 % under extraction rules 10 (fourteenth session), the first held-out register a rules change moved the wrong way (docs/obligations.md); its article lists are unread",
  "ee-small-token-offeror":
    "dev profile, read twice and adjudicated in the tenth session: precision 78.7 %, recall 94.9 % at first comparison (before any tuning on it); 97.4 % / 94.9 % after the MiCA readings (see the single-reader entry); one article short of the recall target: Data Act Art 20 and ePrivacy Art 5 are undetermined on facts the adjudicator takes as given, and MiCA Art 109(2) is over-included; each is listed with its reason; 100 % / 94.9 % in the eleventh session once MiCA Art 109(2)'s archive was ESMA's",
  "es-electricity-dso-essential-entity":
    "dev profile, adjudicated at the ninth session's end: precision 97.6 %, recall 87.2 % at first comparison; recall is lost on the payer's and payee's PSD2 duties (Arts 62, 69, 80), which the adjudicator binds for a company of this size and the engine leaves undetermined until the profile states psd2_payer / psd2_payee (stating them exposed an engine error, fixed; Arts 40, 44 and 59 would still come with them), on CER Art 21, ePrivacy Art 5 and GDPR Art 39; each is listed with its reason; 97.7 % / 89.4 % in the tenth session once the data protection officer's tasks were the designating controller's (GDPR Art 39); 97.6 % / 87.2 % in the twelfth session once CSRD's stages by category of undertaking left Article 1 undetermined on whether the DSO is a public-interest entity (Art 5(2)(a)-(b) as Directive (EU) 2025/794 moved them; the readers graded the adopted text, under which it binds either way)",
  "ie-vlop-marketplace":
    "dev profile, adjudicated at the ninth session's end: precision 96.1 %, recall 91.3 % at first comparison (88.2 % / 84.8 % against the first reader alone); left: GDPR duties conditioned on a kind of processing (Arts 7, 11, 28), the payer's and payee's PSD2 duties, ePrivacy Arts 5 and 13, eIDAS Art 5b, GDPR Art 82 and PSD2 Art 37; each is listed with its reason; 96.1 % / 92.5 % in the tenth session once a designated very large online platform was a relying party (eIDAS Arts 5f(3), 5b); 96.1 % / 91.3 % in the twelfth session once CSRD's stages by category of undertaking left Article 1 undetermined on whether the platform is a public-interest entity (Art 5(2)(a)-(b) as Directive (EU) 2025/794 moved them; the reader binds it 'either way' under the adopted text)",
  "at-small-medical-device-manufacturer":
    "test profile: precision 77.8 %, recall 100 % at first comparison (ninth session, before any tuning on adjudicated registers); 80.3 % / 100 % after readings made on the lt and nl dev adjudications (GDPR Art 82(5) and Data Act Art 20(1) left the register); left: GDPR duties conditioned on a kind of processing (Arts 7, 10, 11, 21, 22, 28), which the engine binds for every controller and this adjudicator leaves undetermined (a convention the dev adjudications split on), and MDR articles both readers leave out (Arts 17, 21, 28, 51, 58, 120); each is listed with its reason",
  "de-large-bank":
    "test profile: precision 90.6 %, recall 92.8 % at first comparison (ninth session, before any tuning on adjudicated registers); 91.7 % / 92.8 % after readings made on the lt and nl dev adjudications (DORA Art 22 left the register); left: AI Act Art 111(2) for a system put into service before August 2026, PSD2 Chapter 2's single payment transactions (Art 43(1)) without a fact, PSD2 articles written with the user as subject, and others; each is listed with its reason; 91.2 % / 92.8 % in the tenth session, held out: PSD2 Art 115(6) now binds, a side effect of a rule read on the dev profiles (listed, not tuned)",
  "nl-micro-high-risk-ai-provider":
    "dev profile: precision 91.5 %, recall 100 % at first comparison (ninth session, before any tuning on adjudicated registers); 93.0 % / 98.1 % after the readings made on lt and nl (GDPR Art 82 left the register; Data Act Art 20 is undetermined for a micro data holder that does not say it claims compensation, which both readers bind); left: GDPR duties conditioned on a kind of processing (Arts 7, 10, 22, 36), which this adjudicator leaves undetermined and the lt adjudicator binds (Arts 10, 22); each is listed with its reason",
};

describe("adjudicated registers (eval/registers/adjudicated.ts)", () => {
  let release: LoadedRelease;
  before(() => {
    const record = newestBuilt(ROOT, "eu");
    assert.ok(record, "npm test builds eu first");
    release = loadRelease(releaseDir(ROOT, "eu", record.tag));
  });

  test("at least five shipped profiles meet precision ≥ 97 % and recall ≥ 95 % against their adjudicated registers (issue 13)", () => {
    const meeting = adjudicatedProfiles().filter((p) => {
      const c = compare(release, adjudicatedRegister(p));
      return c.precision >= 0.97 && c.recall >= 0.95;
    });
    assert.ok(meeting.length >= 5, `meeting the targets: ${meeting.join(", ") || "none"}`);
    // Every profile that meets them is out of the shortfall list, so its own test asserts it.
    for (const p of meeting)
      assert.equal(ADJUDICATED_SHORTFALLS[p], undefined, `${p} meets the targets; take it off the list`);
  });

  for (const profile of adjudicatedProfiles()) {
    test(`${profile}: the adjudicator decides each article the two readings dispute, once, with a reason`, () => {
      const open = disputed(readGold(profile), readGold(profile, SECOND_DIR));
      const adj = readAdjudication(profile);
      assert.deepEqual(adj.decisions.map((d) => d.article).sort(), open);
      for (const d of adj.decisions) {
        assert.ok(d.reason.length > 20, `${d.article}: a reason a reviewer can check`);
        if (d.status === "undetermined") assert.ok(d.fact, `${d.article}: the fact it turns on`);
        if (d.status === "excluded") assert.ok(d.provision, `${d.article}: the provision that lifts it`);
      }
    });

    const unlisted =
      readAdjudication(profile).disagreements === undefined
        ? "the adjudication arrived this session; its disagreements with the engine are not yet read against the text"
        : undefined;
    test(
      `${profile}: every disagreement with the adjudicated register is listed with its reason`,
      unlisted ? { todo: unlisted } : {},
      () => {
        const c = compare(release, adjudicatedRegister(profile));
        assert.deepEqual(c.unexplained, [], "articles on which engine and register differ, not listed");
        assert.deepEqual(c.stale, [], "listed disagreements on which engine and register now agree");
        assert.deepEqual(c.misstated, [], "disagreements that misstate what the engine says of the article");
      },
    );

    const shortfall = ADJUDICATED_SHORTFALLS[profile];
    test(
      `${profile}: precision ≥ 97 % and recall ≥ 95 % against the adjudicated register`,
      shortfall ? { todo: shortfall } : {},
      () => {
        const c = compare(release, adjudicatedRegister(profile));
        assert.ok(c.precision >= 0.97, `precision ${(c.precision * 100).toFixed(1)} %`);
        assert.ok(c.recall >= 0.95, `recall ${(c.recall * 100).toFixed(1)} %`);
      },
    );
  }
});
