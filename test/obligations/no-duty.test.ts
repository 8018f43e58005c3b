/** Sentences with a modal that state no one's duty (src/obligations/no-duty.ts), rule by rule. */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { statesNoDuty } from "../../src/obligations/no-duty.ts";

describe("sentences that state no duty", () => {
  test("the act about itself and entry into force are never duties; conduct is", () => {
    assert.equal(statesNoDuty("This Regulation shall enter into force on the twentieth day.", 1), true);
    assert.equal(statesNoDuty("Manufacturers shall keep records.", 8), false);
  });

  test("'shall be responsible' is liability under rules 1 and the duty it is from rules 2", () => {
    const text = "The controller shall be responsible for compliance with paragraph 1.";
    assert.equal(statesNoDuty(text, 1), true);
    assert.equal(statesNoDuty(text, 2), false);
  });

  test("each later set applies from the rules that introduced it", () => {
    const qualify =
      "An economic activity shall qualify as environmentally sustainable where it meets the criteria.";
    assert.equal(statesNoDuty(qualify, 5), false);
    assert.equal(statesNoDuty(qualify, 6), true);
    const revoke =
      "A decision to revoke shall put an end to the delegation of the power specified in that decision.";
    assert.equal(statesNoDuty(revoke, 7), false);
    assert.equal(statesNoDuty(revoke, 8), true);
    const criteria =
      "The criteria for classifying tokens as significant shall be the following, as further specified:";
    assert.equal(statesNoDuty(criteria, 8), true);
    assert.equal(statesNoDuty("A decision shall be adopted by two-thirds of the members.", 8), true);
    // When a directive's measures apply is a rule about the law, not conduct (PSD2 Art 115(4)) ...
    const staged =
      "Member States shall ensure the application of the security measures referred to in Articles 65, 66, 67 and 97 from 18 months after the date of entry into force of the regulatory technical standards.";
    assert.equal(statesNoDuty(staged, 7), false);
    assert.equal(statesNoDuty(staged, 8), true);
    // ... and so is when a moment is (PSD2 Art 78(1)) ...
    const receipt =
      "Member States shall ensure that the time of receipt is when the payment order is received by the payer's payment service provider.";
    assert.equal(statesNoDuty(receipt, 7), false);
    assert.equal(statesNoDuty(receipt, 8), true);
    assert.equal(
      statesNoDuty(
        "Member States shall ensure that the credit value date is no later than the business day.",
        8,
      ),
      false,
    );
    // ... unlike a duty to apply something, which stays one.
    assert.equal(
      statesNoDuty(
        "Member States shall ensure the application of appropriate safeguards to the processing.",
        8,
      ),
      false,
    );
  });
});
