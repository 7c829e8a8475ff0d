// Command clarify answers questions about SQL databases in plain language,
// and asks instead of guessing when a question is ambiguous.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/clarify-sql/clarify/internal/cli"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := cli.Run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
