package signflow

import "time"

// Kinds of timer.
const (
	// TimerDeadline cancels a contract still CREATED at its signBy.
	TimerDeadline = "deadline"
	// TimerReminder texts a notified signer who has not signed again.
	TimerReminder = "reminder"
	// TimerPayment texts the buyer of an ACTIVE contract before an item of
	// its schedule falls due.
	TimerPayment = "payment"
)

// Timer is work the service does at a time, kept in the store so that it
// survives a restart and one process of several does it: a contract's
// deadline, a signer's next reminder. Kind and Subject name it; setting it
// again moves it.
type Timer struct {
	Kind    string    `json:"kind"`
	Subject string    `json:"subject"`
	At      time.Time `json:"at"`
	// ContractID is the contract the timer is about.
	ContractID string `json:"contractId"`
	// A reminder's signer, the texts sent so far (the first notice
	// counts none), their language and where the first text led: the
	// session whose link was texted, or, without one, the cabinet at Link.
	SignerIN  string `json:"signerIn,omitempty"`
	Sent      int    `json:"sent,omitempty"`
	Lang      string `json:"lang,omitempty"`
	SessionID string `json:"sessionId,omitempty"`
	Link      string `json:"link,omitempty"`
	// A payment reminder's item of the ledger (LedgerItem.N).
	Item int `json:"item,omitempty"`
}

// reminderSubject names the reminder timer of a signer of a contract.
func reminderSubject(contractID, signerIN string) string { return contractID + "/" + signerIN }
