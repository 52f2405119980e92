package aodbrequest

import (
	"fmt"
	"os"
)

// Failpoints: MSGX_FAILPOINT=<name> makes the process exit at that point, so
// tests can kill the real binary inside a crash window. Never set in
// production.
const failAfterInsert = "request-after-insert" // the request is in coutmsgs, not yet SENT

// failpointExit is the exit code of a failpoint.
const failpointExit = 86

func failpoint(name string) {
	if os.Getenv("MSGX_FAILPOINT") == name {
		fmt.Fprintf(os.Stderr, "msgx: failpoint %s: exiting\n", name)
		os.Exit(failpointExit)
	}
}
