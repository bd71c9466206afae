package signflow

// SignerMethod is the confirmation method the template asks of a signer,
// by the kind of party the number belongs to. OpenSession uses it too, so
// pages that explain the method before a session is opened show its choice.
func SignerMethod(t *Template, signerIN string) string { return t.MethodFor(ClientTypeOf(signerIN)) }
