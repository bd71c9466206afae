package browsertest

import (
	"context"
	"testing"

	"contracts/internal/fixture"
)

// SignWithSMS walks, in English, the signing steps the signing page and
// the cabinet share (assets/sign/steps.html): Sign, the code sent to the
// phone as the page masks it, a wrong code refused with four attempts
// left, then the right code, confirmed. code returns the code that was
// sent.
func SignWithSMS(t *testing.T, ctx context.Context, maskedPhone string, code func() string) {
	t.Helper()
	Click(t, ctx, "button", "Sign")
	WaitText(t, ctx, "We sent a 5-digit code to "+maskedPhone)
	right := code()
	Type(t, ctx, "SMS code", fixture.NotCode(right))
	Click(t, ctx, "button", "Confirm")
	WaitText(t, ctx, "Wrong code. Attempts left: 4.")
	Type(t, ctx, "SMS code", right)
	Click(t, ctx, "button", "Confirm")
}
