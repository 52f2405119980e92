package vocab

import "errors"

// ErrNotFound: the row asked for does not exist. It is the store's
// (store.ErrNotFound is this value, mapped by every adapter), declared here
// so a reader's contract can name it without the store — as river's
// ErrNotFound is rivertype's.
var ErrNotFound = errors.New("store: not found")
