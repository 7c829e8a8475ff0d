package llm

import (
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"
)

// Environment variables read by FromEnv.
const (
	EnvBaseURL = "CLARIFY_LLM_BASE_URL"
	EnvModel   = "CLARIFY_LLM_MODEL"
	EnvAPIKey  = "CLARIFY_LLM_API_KEY"
)

// Defaults applied to a zero Config field.
const (
	DefaultTimeout           = 2 * time.Minute
	DefaultFirstTokenTimeout = 30 * time.Second
	DefaultMaxRetries        = 3
	DefaultBackoff           = 500 * time.Millisecond
	DefaultMaxBackoff        = 20 * time.Second
)

// Config says which endpoint and model to talk to and how patiently. Its zero
// value, once BaseURL and Model are set, means the defaults.
type Config struct {
	// BaseURL is the endpoint's API root, the part before /chat/completions:
	// https://api.openai.com/v1, http://localhost:11434/v1 (Ollama),
	// http://localhost:8000/v1 (vLLM), http://localhost:8080/v1 (llama.cpp).
	// Required.
	BaseURL string
	// Model is the model name sent with every request. Required.
	Model string
	// APIKey is sent as a bearer token when set. It comes from the
	// environment only, and String and LogValue never show it.
	APIKey string
	// Temperature is sent with every request unless the request sets its
	// own. Default 0: the same question should get the same answer.
	Temperature float64
	// Timeout bounds one call as a whole, retries and waits included.
	// Default 2 minutes.
	Timeout time.Duration
	// FirstTokenTimeout bounds, in a streamed call, the wait from sending the
	// request to the first content or tool-call delta. Default 30 s.
	FirstTokenTimeout time.Duration
	// MaxRetries is how many times a failed attempt is retried (429, 408,
	// 5xx, a connection reset). Default 3; negative means never retry.
	MaxRetries int
	// Backoff is the first retry's wait; each next one doubles, up to
	// MaxBackoff, with random jitter. Defaults 500 ms and 20 s.
	Backoff, MaxBackoff time.Duration
	// HTTPClient sends the requests. Default: a client with no timeout of
	// its own (the context and Timeout bound each call).
	HTTPClient *http.Client
	// OnCall, when set, is called once at the end of every call with what
	// it cost, for metrics. It must not block.
	OnCall func(Call)
	// OnRetry, when set, is called before each retry's wait.
	OnRetry func(Retry)
	// Now is the clock used to read Retry-After dates. Default time.Now.
	Now func() time.Time
}

// FromEnv returns a Config read from CLARIFY_LLM_BASE_URL, CLARIFY_LLM_MODEL
// and CLARIFY_LLM_API_KEY, with every other field at its default.
func FromEnv() Config {
	return Config{
		BaseURL: strings.TrimSpace(os.Getenv(EnvBaseURL)),
		Model:   strings.TrimSpace(os.Getenv(EnvModel)),
		APIKey:  strings.TrimSpace(os.Getenv(EnvAPIKey)),
	}
}

// Validate reports what is missing or wrong, without ever quoting the key.
func (c Config) Validate() error {
	var errs []error
	if c.BaseURL == "" {
		errs = append(errs, fmt.Errorf("no base URL: set %s (e.g. http://localhost:11434/v1 for Ollama)", EnvBaseURL))
	} else if u, err := url.Parse(c.BaseURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		errs = append(errs, fmt.Errorf("base URL %q is not an http(s) URL", redactURL(c.BaseURL)))
	}
	if c.Model == "" {
		errs = append(errs, fmt.Errorf("no model: set %s", EnvModel))
	}
	if c.Timeout < 0 || c.FirstTokenTimeout < 0 || c.Backoff < 0 || c.MaxBackoff < 0 {
		errs = append(errs, errors.New("timeouts and backoffs cannot be negative"))
	}
	if c.Temperature < 0 || c.Temperature > 2 {
		errs = append(errs, fmt.Errorf("temperature %g is outside 0..2", c.Temperature))
	}
	return errors.Join(errs...)
}

// withDefaults fills zero fields.
func (c Config) withDefaults() Config {
	if c.Timeout == 0 {
		c.Timeout = DefaultTimeout
	}
	if c.FirstTokenTimeout == 0 {
		c.FirstTokenTimeout = DefaultFirstTokenTimeout
	}
	if c.MaxRetries == 0 {
		c.MaxRetries = DefaultMaxRetries
	}
	if c.MaxRetries < 0 {
		c.MaxRetries = 0
	}
	if c.Backoff == 0 {
		c.Backoff = DefaultBackoff
	}
	if c.MaxBackoff == 0 {
		c.MaxBackoff = DefaultMaxBackoff
	}
	if c.HTTPClient == nil {
		c.HTTPClient = &http.Client{}
	}
	if c.Now == nil {
		c.Now = time.Now
	}
	c.BaseURL = strings.TrimRight(c.BaseURL, "/")
	return c
}

// String describes the config for logs and messages, with the key hidden.
func (c Config) String() string {
	key := "none"
	if c.APIKey != "" {
		key = "set"
	}
	return fmt.Sprintf("endpoint %s, model %q, key %s", redactURL(c.BaseURL), c.Model, key)
}

// LogValue keeps the key out of structured logs.
func (c Config) LogValue() slog.Value {
	return slog.GroupValue(
		slog.String("base_url", redactURL(c.BaseURL)),
		slog.String("model", c.Model),
		slog.Bool("api_key_set", c.APIKey != ""),
	)
}

// redactURL hides a password in a URL.
func redactURL(s string) string {
	u, err := url.Parse(s)
	if err != nil {
		return "(unparseable URL)"
	}
	return u.Redacted()
}
