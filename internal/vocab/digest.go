package vocab

import "crypto/sha256"

// DigestSize is the bytes of a raw message's digest: SHA-256 cut to 128
// bits, enough that two different messages never share one by chance, and
// a sixth of the row's identity key.
const DigestSize = 16

// RawDigest is the digest of a raw mailbox message (rule 2): a duplicate
// whose digest differs from its holder's is a reused identity, not a resend.
func RawDigest(raw []byte) []byte {
	sum := sha256.Sum256(raw)
	return sum[:DigestSize:DigestSize]
}

// ConflictSuffix ends the reason of a duplicate whose raw message differs
// from its holder's: duplicate-of:<id>:content-differs.
const ConflictSuffix = ":content-differs"
