package auth

import (
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"io"
	"strings"
	"time"
)

// keyPrefix starts every key made by NewKey.
const keyPrefix = "clk_"

const (
	idBytes     = 8  // 16 hex digits: enough to never collide in one config
	secretBytes = 32 // 256 bits: a salted SHA-256 needs no slow KDF
	saltBytes   = 16
	maxKeyText  = 512
)

// keyring finds keys by id (salted) or by unsalted hash (legacy).
type keyring struct {
	byID   map[string]*storedKey
	legacy map[[sha256.Size]byte]*storedKey
}

type storedKey struct {
	Key
	salt []byte
	sum  []byte // salted hash, or the legacy unsalted one
}

func newKeyring(keys []Key) (*keyring, error) {
	kr := &keyring{byID: map[string]*storedKey{}, legacy: map[[sha256.Size]byte]*storedKey{}}
	for i, k := range keys {
		if err := validName(k.User); err != nil {
			return nil, fmt.Errorf("api key %d: user: %w", i, err)
		}
		sk := &storedKey{Key: k}
		sk.Groups = append([]string(nil), k.Groups...)
		switch {
		case k.SHA256 != "" && (k.ID != "" || k.Hash != ""):
			return nil, fmt.Errorf("api key %d (%s): set either sha256 (legacy) or id and hash, not both", i, k.User)
		case k.SHA256 != "":
			sum, err := hex.DecodeString(k.SHA256)
			if err != nil || len(sum) != sha256.Size {
				return nil, fmt.Errorf("api key %d (%s): sha256 must be 64 hex digits", i, k.User)
			}
			var h [sha256.Size]byte
			copy(h[:], sum)
			if kr.legacy[h] != nil {
				return nil, fmt.Errorf("api key %d (%s): the same sha256 is configured twice", i, k.User)
			}
			sk.sum = sum
			kr.legacy[h] = sk
		case k.ID != "" && k.Hash != "":
			if !validID(k.ID) {
				return nil, fmt.Errorf("api key %d (%s): id %q must be 1 to 64 letters or digits", i, k.User, k.ID)
			}
			salt, sum, err := parseHash(k.Hash)
			if err != nil {
				return nil, fmt.Errorf("api key %d (%s): %w", i, k.User, err)
			}
			if kr.byID[k.ID] != nil {
				return nil, fmt.Errorf("api key %d (%s): id %s is used by another key", i, k.User, k.ID)
			}
			sk.salt, sk.sum = salt, sum
			kr.byID[k.ID] = sk
		default:
			return nil, fmt.Errorf("api key %d (%s): a key needs sha256, or id and hash", i, k.User)
		}
	}
	return kr, nil
}

// identify finds the key for text and checks it.
func (kr *keyring) identify(text string, now time.Time) (Identity, error) {
	if len(kr.byID) == 0 && len(kr.legacy) == 0 {
		return Identity{}, fmt.Errorf("%w: API keys are not accepted here", ErrInvalid)
	}
	if len(text) > maxKeyText {
		return Identity{}, fmt.Errorf("%w: API key too long", ErrInvalid)
	}
	var sk *storedKey
	if id, _, ok := splitKey(text); ok && kr.byID[id] != nil {
		k := kr.byID[id]
		if subtle.ConstantTimeCompare(saltedSum(k.salt, text), k.sum) != 1 {
			return Identity{}, fmt.Errorf("%w: API key not recognised", ErrInvalid)
		}
		sk = k
	} else {
		// A map lookup on the SHA-256 of a high-entropy key reveals nothing
		// usable about other keys through its timing.
		sk = kr.legacy[sha256.Sum256([]byte(text))]
	}
	if sk == nil {
		return Identity{}, fmt.Errorf("%w: API key not recognised", ErrInvalid)
	}
	if !sk.Expires.IsZero() && !now.Before(sk.Expires) {
		return Identity{}, fmt.Errorf("%w: this API key expired on %s; ask for a new one", ErrExpired, sk.Expires.UTC().Format(time.RFC3339))
	}
	return Identity{User: sk.User, Groups: append([]string(nil), sk.Groups...), Admin: sk.Admin, Method: MethodKey}, nil
}

// splitKey splits "clk_<id>_<secret>".
func splitKey(text string) (id, secret string, ok bool) {
	rest, ok := strings.CutPrefix(text, keyPrefix)
	if !ok {
		return "", "", false
	}
	id, secret, ok = strings.Cut(rest, "_")
	if !ok || !validID(id) || secret == "" {
		return "", "", false
	}
	return id, secret, true
}

func validID(id string) bool {
	if id == "" || len(id) > 64 {
		return false
	}
	for _, c := range id {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9') {
			return false
		}
	}
	return true
}

// parseHash reads "sha256$<salt hex>$<hash hex>".
func parseHash(s string) (salt, sum []byte, err error) {
	parts := strings.Split(s, "$")
	if len(parts) != 3 || parts[0] != "sha256" {
		return nil, nil, fmt.Errorf("hash must look like sha256$<salt hex>$<hash hex>")
	}
	salt, err = hex.DecodeString(parts[1])
	if err != nil || len(salt) < 8 {
		return nil, nil, fmt.Errorf("hash: the salt must be at least 16 hex digits")
	}
	sum, err = hex.DecodeString(parts[2])
	if err != nil || len(sum) != sha256.Size {
		return nil, nil, fmt.Errorf("hash: the hash must be 64 hex digits")
	}
	return salt, sum, nil
}

func saltedSum(salt []byte, text string) []byte {
	h := sha256.New()
	h.Write(salt)
	h.Write([]byte(text))
	return h.Sum(nil)
}

// NewKey makes a key for user from rnd (crypto/rand.Reader outside tests).
// text is the key as the user sends it, "clk_<id>_<secret>", to be shown
// once; k holds only its id and salted hash, for the configuration.
func NewKey(user string, expires time.Time, rnd io.Reader) (text string, k Key, err error) {
	if err := validName(user); err != nil {
		return "", Key{}, fmt.Errorf("new key: user: %w", err)
	}
	buf := make([]byte, idBytes+secretBytes+saltBytes)
	if _, err := io.ReadFull(rnd, buf); err != nil {
		return "", Key{}, fmt.Errorf("new key: read random bytes: %w", err)
	}
	id := hex.EncodeToString(buf[:idBytes])
	secret := base64.RawURLEncoding.EncodeToString(buf[idBytes : idBytes+secretBytes])
	salt := buf[idBytes+secretBytes:]
	text = keyPrefix + id + "_" + secret
	k = Key{
		User:    user,
		ID:      id,
		Hash:    "sha256$" + hex.EncodeToString(salt) + "$" + hex.EncodeToString(saltedSum(salt, text)),
		Expires: expires,
	}
	return text, k, nil
}
