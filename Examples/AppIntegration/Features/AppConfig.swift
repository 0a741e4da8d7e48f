public import HybridConfig
import Foundation

/// The config the app ships inside its binary: what runs before any fetch, offline, and after a fetched config is
/// refused. An app keeps it as a JSON file in its bundle (or, as here, a string) and publishes its successors with
/// `hybrid config publish`, which inlines template files, so a fetched config needs nothing on disk.
public enum AppConfig {
    /// The shipped config, validated.
    public static func bundled() throws(ConfigError) -> ValidatedConfig {
        try ConfigValidator.load(Data(json.utf8))
    }

    /// The on-device SmolLM2 first, then the cloud models whose keys are set; summaries and contact cards.
    static let json = #"""
    {
      "version": 1,
      "description": "The example app's shipped config: on-device first, cloud as fallback.",
      "models": {
        "local-smollm2": {
          "kind": "llama-cpp", "model": "SmolLM2-135M-Instruct", "tier": "on-device",
          "pricing": { "inputPerMillion": 0, "outputPerMillion": 0 }, "contextWindow": 4096, "maxOutputTokens": 1024,
          "capabilities": { "structuredOutput": true, "streaming": true }
        },
        "openai-gpt-4o-mini": {
          "kind": "openai-compatible", "baseURL": "https://api.openai.com/v1", "model": "gpt-4o-mini",
          "tier": "third-party", "apiKeyEnv": "OPENAI_API_KEY",
          "pricing": { "inputPerMillion": 0.15, "outputPerMillion": 0.6 }, "contextWindow": 128000,
          "capabilities": { "structuredOutput": true, "streaming": true }
        },
        "anthropic-claude-haiku": {
          "kind": "anthropic", "baseURL": "https://api.anthropic.com/v1", "model": "claude-3-5-haiku-latest",
          "tier": "third-party", "apiKeyEnv": "ANTHROPIC_API_KEY",
          "pricing": { "inputPerMillion": 0.8, "outputPerMillion": 4.0 }, "contextWindow": 200000, "maxOutputTokens": 8192,
          "capabilities": { "structuredOutput": true, "streaming": true }
        }
      },
      "features": {
        "summarize": {
          "instructions": "You are a helpful assistant. You write short, factual summaries.",
          "variants": {
            "concise": { "template": "Summarize the text below in at most three short sentences. Keep only the main facts.\n\nText:\n{{input}}\n\nSummary:\n" }
          },
          "defaultVariant": "concise",
          "constraints": { "maxSentences": 3, "maxWords": 80 },
          "options": { "temperature": 0.2, "maxOutputTokens": 160 },
          "priority": ["local-smollm2", "openai-gpt-4o-mini", "anthropic-claude-haiku"],
          "deadlineMs": 20000, "privacy": "open", "monthlyBudgetUSD": 5
        },
        "extract": {
          "instructions": "You extract facts from text and answer with JSON only.",
          "variants": {
            "default": { "template": "Read the text and find the person's name, their company, their email if given, and the topics they talk about.\nAnswer with JSON only.\n\nText:\n{{input}}\n\nJSON:\n" }
          },
          "defaultVariant": "default",
          "options": { "temperature": 0, "maxOutputTokens": 200 },
          "priority": ["local-smollm2", "openai-gpt-4o-mini", "anthropic-claude-haiku"],
          "deadlineMs": 20000, "privacy": "open", "monthlyBudgetUSD": 5
        }
      }
    }
    """#
}
