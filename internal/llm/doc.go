// Package llm is Clarify's client for OpenAI-compatible chat-completions
// endpoints: OpenAI itself, Ollama, vLLM, llama.cpp's server, LM Studio.
//
// It sits at the edge of the LLM engine (docs/llm.md; docs/design.md,
// section "The language-model engine"): the engine builds
// a Request (messages, tools, a response format), and this package sends it,
// retries what is worth retrying, streams the reply through a callback,
// assembles the final message and reports token usage and latency. It knows
// nothing about questions, plans or SQL.
//
// The wire protocol is written by hand on net/http rather than through the
// official SDK; docs/dependencies.md says why. In short: a stream that ends
// before its end must be an error, retries must follow our rules, a first
// token must arrive in time, and the quirks of non-OpenAI servers (tool-call
// deltas without an index, tool calls with finish_reason "stop", a JSON body
// where a stream was asked for) must be absorbed here, once.
//
// The API key comes from the environment (CLARIFY_LLM_API_KEY) and is never
// logged nor put into an error message.
package llm
