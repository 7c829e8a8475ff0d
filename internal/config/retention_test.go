package config_test

import (
	"testing"
	"time"
)

func TestConversationsKeep(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		yaml    string
		want    time.Duration
		wantErr string
	}{
		{name: "absent", yaml: "data_dir: /tmp/x\n", want: 0},
		{name: "days", yaml: "conversations: {keep: 30d}\n", want: 30 * 24 * time.Hour},
		{name: "hours", yaml: "conversations:\n  keep: 36h\n", want: 36 * time.Hour},
		{name: "zero", yaml: "conversations: {keep: 0}\n", want: 0},
		{name: "zero days", yaml: "conversations: {keep: 0d}\n", want: 0},
		{name: "no unit", yaml: "conversations: {keep: 30}\n", wantErr: `"30" is not a duration`},
		{name: "fraction of days", yaml: "conversations: {keep: 1.5d}\n", wantErr: "whole days"},
		{name: "negative days", yaml: "conversations: {keep: -3d}\n", wantErr: "whole days"},
		{name: "negative", yaml: "conversations: {keep: -3h}\n", wantErr: "must not be negative"},
		{name: "a list", yaml: "conversations: {keep: [1]}\n", wantErr: "want a duration"},
		{name: "unknown key", yaml: "conversations: {keep: 1d, forever: true}\n", wantErr: "forever"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c := loadWant(t, tc.yaml, tc.wantErr)
			if c == nil {
				return
			}
			if got := time.Duration(c.Conversations.Keep); got != tc.want {
				t.Errorf("keep = %s, want %s", got, tc.want)
			}
		})
	}
}
