// JSON values, JSON Schema and the output checks live in HybridValidation, below the core; re-exported because every
// request and answer carries them, so `import HybridCore` (or `import HybridAI`) is still the one import an app needs.
@_exported public import HybridValidation
