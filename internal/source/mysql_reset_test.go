package source

import (
	"bytes"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// packet frames payload as a MySQL packet of sequence seq.
func packet(seq byte, payload ...byte) []byte {
	n := len(payload)
	return append([]byte{byte(n), byte(n >> 8), byte(n >> 16), seq}, payload...)
}

// lenencStr is a length-encoded string of a text row.
func lenencStr(s string) []byte { return append([]byte{byte(len(s))}, s...) }

// TestReadReset reads the server's answers to a reset and its probe as
// each server and capability set sends them: a session the reset left
// with backslash escapes off is reported, so the warmer sets sql_mode
// before the connection serves again, and anything unexpected is an error
// (the connection is then closed).
func TestReadReset(t *testing.T) {
	ok := packet(1, 0x00, 0, 0, 0x02, 0, 0, 0)
	coldef := []byte{3, 'd', 'e', 'f'} // enough of a column definition: it is skipped
	eof := []byte{0xfe, 0, 0, 0x02, 0}
	row := func(id, flag string) []byte { return append(lenencStr(id), lenencStr(flag)...) }
	join := func(ps ...[]byte) []byte { return bytes.Join(ps, nil) }
	for _, tc := range []struct {
		name    string
		answers []byte
		want    resetSession
		wantErr bool
	}{
		{"classic EOF packets", join(ok, packet(1, 2), packet(2, coldef...), packet(3, coldef...), packet(4, eof...),
			packet(5, row("1234", "0")...), packet(6, eof...)), resetSession{id: 1234}, false},
		{"deprecated EOF", join(ok, packet(1, 2), packet(2, coldef...), packet(3, coldef...),
			packet(4, row("77", "0")...), packet(5, 0xfe, 0, 0, 0x02, 0, 0, 0)), resetSession{id: 77}, false},
		{"MariaDB metadata follows", join(ok, packet(1, 2, 1), packet(2, coldef...), packet(3, coldef...),
			packet(4, row("77", "0")...), packet(5, 0xfe, 0, 0, 0x02, 0, 0, 0)), resetSession{id: 77}, false},
		{"MariaDB metadata cached", join(ok, packet(1, 2, 0),
			packet(2, row("77", "0")...), packet(3, 0xfe, 0, 0, 0x02, 0, 0, 0)), resetSession{id: 77}, false},
		{"backslash escapes off", join(ok, packet(1, 2), packet(2, coldef...), packet(3, coldef...),
			packet(4, row("9", "3")...), packet(5, 0xfe, 0, 0, 0x02, 0, 0, 0)), resetSession{id: 9, noBackslashEscapes: true}, false},
		{"reset refused", join(packet(1, 0xff, 0x10, 0x04, '#', '0', '8', 'S', '0', '1')), resetSession{}, true},
		{"probe refused", join(ok, packet(1, 0xff, 0x10, 0x04, '#', '0', '8', 'S', '0', '1')), resetSession{}, true},
		{"two rows", join(ok, packet(1, 2), packet(2, coldef...), packet(3, coldef...),
			packet(4, row("9", "0")...), packet(5, row("10", "0")...), packet(6, eof...)), resetSession{}, true},
		{"wrong sequence", join(ok, packet(2, 2)), resetSession{}, true},
		{"not a number", join(ok, packet(1, 2), packet(2, coldef...), packet(3, coldef...),
			packet(4, row("x", "0")...), packet(5, eof...)), resetSession{}, true},
		{"cut short", join(ok, packet(1, 2), packet(2, coldef...)), resetSession{}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := readReset(bytes.NewReader(tc.answers))
			if (err != nil) != tc.wantErr {
				t.Fatalf("err = %v, want an error: %v", err, tc.wantErr)
			}
			if diff := cmp.Diff(tc.want, got, cmp.AllowUnexported(resetSession{})); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
