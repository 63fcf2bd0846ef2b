package cardkey

// Catalog codes the service sends (docs/errors.md). No failure code is ever 0 or 1, so a failure
// can never pass a family's success rule. Connect's negative codes come back positive.
const (
	CodeBadRequest             = 10001
	CodeMethodNotAllowed       = 10002
	CodeCiphertextNotAllowed   = 10003
	CodeAppRequired            = 10004
	CodeInternalKeyNotAccepted = 10005
	CodeNotFound               = 10006
	CodeUnsupportedMediaType   = 10007
	CodePayloadTooLarge        = 10008
	CodeDownloadAddressInvalid = 10009
	CodeHTTPSRequired          = 10010
	CodeSignatureInvalid       = 10101
	CodeTimestampOutOfWindow   = 10102
	CodeNonceReplayed          = 10103
	CodeProgramNotFound        = 10201
	CodeProgramDisabled        = 10202
	CodeAuthorDisabled         = 10203
	CodeVerificationSwitchOff  = 10204
	CodePackageNotEnabled      = 10205
	CodeInterfaceNotAuthorized = 10206
	CodeInterfaceDisabled      = 10207
	CodeConnectNotEnabled      = 10208
	CodeQuotaExceeded          = 10301
	CodeRateLimited            = 10302
	CodeFileNotFound           = 11108
	CodeCardInvalid            = 20001
	CodeCardExpired            = 20002
	CodeCardBanned             = 20003
	CodeDeviceLimitReached     = 20004
	CodeUnbindRefused          = 20005
	CodeCardNoUsesLeft         = 20006
	CodeSeatsFull              = 20007
	CodeTopupRefused           = 20008
	CodeCheckoutDisabled       = 20009
	CodeDeviceNotBound         = 20010
	CodeTrialUsed              = 20011
	CodeUsernameTaken          = 30001
	CodeBadCredentials         = 30002
	CodeUserBanned             = 30003
	CodeMachineMismatch        = 30004
	CodeSessionInvalid         = 30101
	CodeSessionTypeMismatch    = 30102
	CodeSiteNotAuthorized      = 40001
	CodeBlacklisted            = 40002
	CodeIPNotBound             = 40003
	CodeSystemError            = 50000
)

// Codes the client reports itself when it has no usable answer; the service never sends them.
const (
	// CodeNetworkError: no answer (refused, reset, DNS, timeout, cancelled) after the retries of idempotent calls.
	CodeNetworkError = 90001
	// CodeUnexpectedResponse: not the family's JSON (HTML, a redirect, an empty body): the address or a proxy is wrong.
	CodeUnexpectedResponse = 90002
	// CodeNoSession: a heartbeat without a session of that type; nothing was sent.
	CodeNoSession = 90003
	// CodeUntrustedResponse: not the service's answer to this request (a bad, v1 or missing signature
	// with pinned keys; a success naming another device, card or session owner). Never a success.
	CodeUntrustedResponse = 90004
)

// SessionEnded reports whether code ends a session for good: clear it, leave the protected
// functions and log in again.
func SessionEnded(code int) bool {
	return code == CodeSessionInvalid || code == CodeSessionTypeMismatch
}
