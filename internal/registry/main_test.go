package registry_test

import (
	"os"
	"testing"

	"github.com/clarify-sql/clarify/internal/demo/demotest"
)

// TestMain removes the demo files the tests generated.
func TestMain(m *testing.M) { os.Exit(demotest.Run(m)) }
