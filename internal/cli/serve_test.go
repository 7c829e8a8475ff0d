package cli_test

import (
	"bufio"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"io"
	"math/big"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/clarify-sql/clarify/internal/cli"
)

// selfSigned writes a certificate for 127.0.0.1 and localhost and its key,
// and returns their paths and a pool trusting the certificate.
func selfSigned(t *testing.T) (certFile, keyFile string, pool *x509.CertPool) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(1),
		Subject:               pkix.Name{CommonName: "clarify test"},
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().Add(time.Hour),
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true,
		IsCA:                  true,
		DNSNames:              []string{"localhost"},
		IPAddresses:           []net.IP{net.IPv4(127, 0, 0, 1)},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	certFile, keyFile = filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	if err := os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: keyDER}), 0o600); err != nil {
		t.Fatal(err)
	}
	cert, _ := x509.ParseCertificate(der)
	pool = x509.NewCertPool()
	pool.AddCert(cert)
	return certFile, keyFile, pool
}

// serveInBackground runs clarify serve until the test ends and returns the
// URL it announces.
func serveInBackground(t *testing.T, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	done := make(chan int, 1)
	var errb strings.Builder
	go func() {
		code := cli.Run(ctx, append([]string{"serve"}, args...), strings.NewReader(""), pw, &errb)
		pw.Close()
		done <- code
	}()
	t.Cleanup(func() {
		cancel()
		go func() { _, _ = io.Copy(io.Discard, pr) }()
		if code := <-done; code != 0 {
			t.Errorf("serve exited %d: %s", code, errb.String())
		}
	})
	line, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil {
		t.Fatalf("serve printed no address: %v", err)
	}
	fields := strings.Fields(line)
	if len(fields) < 4 || fields[1] != "serving" {
		t.Fatalf("serve printed %q", line)
	}
	return fields[3]
}

func TestServeTLS(t *testing.T) {
	certFile, keyFile, pool := selfSigned(t)
	url := serveInBackground(t, "--data-dir", dataDir(t), "--addr", "127.0.0.1:0", "--tls-cert", certFile, "--tls-key", keyFile)
	if !strings.HasPrefix(url, "https://127.0.0.1:") {
		t.Fatalf("serve announced %q, want https://127.0.0.1:PORT", url)
	}
	client := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{
		TLSClientConfig: &tls.Config{RootCAs: pool}, ForceAttemptHTTP2: true}}
	for _, path := range []string{"/healthz", "/v1/sources"} {
		resp, err := client.Get(url + path)
		if err != nil {
			t.Fatalf("GET %s: %v", path, err)
		}
		resp.Body.Close()
		if resp.StatusCode != 200 || resp.TLS == nil || resp.ProtoMajor != 2 {
			t.Errorf("GET %s: %d (TLS %v, %s), want 200 over TLS with HTTP/2", path, resp.StatusCode, resp.TLS != nil, resp.Proto)
		}
	}
	// plain HTTP to the TLS port is not served
	if resp, err := http.Get("http://" + strings.TrimPrefix(url, "https://") + "/healthz"); err == nil {
		resp.Body.Close()
		if resp.StatusCode == 200 {
			t.Error("plain HTTP was served on the TLS port")
		}
	}
}

// TestServeRefusesInsecureKeys: API keys configured, a non-loopback
// address and no TLS: serve refuses to start unless told keys may travel
// in clear.
func TestServeRefusesInsecureKeys(t *testing.T) {
	dir := dataDir(t)
	certFile, keyFile, _ := selfSigned(t)
	cfg := filepath.Join(t.TempDir(), "clarify.yaml")
	// the SHA-256 of "test"
	yaml := "server:\n  api_keys:\n    - {user: ana, sha256: 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08}\n"
	if err := os.WriteFile(cfg, []byte(yaml), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		args    []string
		code    int
		wantErr string
	}{
		{"keys over plain HTTP beyond loopback", []string{"--addr", "0.0.0.0:0"}, 1, "--allow-insecure-keys"},
		{"a certificate without its key", []string{"--addr", "127.0.0.1:0", "--tls-cert", certFile}, 2, "tls_cert and tls_key"},
		{"a missing certificate", []string{"--addr", "127.0.0.1:0", "--tls-cert", certFile + ".no", "--tls-key", keyFile}, 1, "load TLS certificate"},
		{"a host with a port", []string{"--addr", "127.0.0.1:0", "--allowed-host", "clarify.example.org:443"}, 2, "allowed_hosts"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"serve", "--data-dir", dir, "--config", cfg}, tc.args...)
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			var out, errb strings.Builder
			code := cli.Run(ctx, args, strings.NewReader(""), &out, &errb)
			if code != tc.code || !strings.Contains(errb.String(), tc.wantErr) {
				t.Errorf("exit %d, stderr %q; want exit %d and %q", code, errb.String(), tc.code, tc.wantErr)
			}
			if strings.Contains(out.String(), "serving") {
				t.Errorf("serve started: %s", out.String())
			}
		})
	}
}

// TestServeInsecureKeysAllowed: the explicit flag lets keys travel over
// plain HTTP (a TLS proxy in front).
func TestServeInsecureKeysAllowed(t *testing.T) {
	cfg := filepath.Join(t.TempDir(), "clarify.yaml")
	yaml := "server:\n  api_keys:\n    - {user: ana, sha256: 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08}\n"
	if err := os.WriteFile(cfg, []byte(yaml), 0o600); err != nil {
		t.Fatal(err)
	}
	url := serveInBackground(t, "--data-dir", dataDir(t), "--config", cfg, "--addr", "0.0.0.0:0", "--allow-insecure-keys",
		"--allowed-host", "clarify.example.org")
	port := url[strings.LastIndex(url, ":")+1:]
	for _, tc := range []struct {
		host string
		want int
	}{{"clarify.example.org:" + port, 200}, {"127.0.0.1:" + port, 200}, {"evil.example:" + port, 421}} {
		req, _ := http.NewRequest("GET", "http://127.0.0.1:"+port+"/v1/sources", nil)
		req.Host = tc.host
		req.Header.Set("Authorization", "Bearer test")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != tc.want {
			t.Errorf("Host %s: %d, want %d", tc.host, resp.StatusCode, tc.want)
		}
	}
}
