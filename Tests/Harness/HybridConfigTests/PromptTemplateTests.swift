@testable import HybridConfig
import Testing

@Suite("Prompt templates")
struct PromptTemplateTests {
    @Test func listsVariablesInOrderWithoutDuplicates() throws {
        let template = try PromptTemplate("Translate {{ text }} into {{language}}. Again: {{text}}")
        #expect(template.variables == ["text", "language"])
    }

    @Test func rendersValuesVerbatim() throws {
        let template = try PromptTemplate("A {{x}} B {{y}}")
        #expect(try template.render(["x": "1", "y": "{{x}}"]) == "A 1 B {{x}}")
    }

    @Test func escapedBracesStayLiteral() throws {
        let template = try PromptTemplate(#"Reply as JSON like \{{"a": 1}} for {{input}}"#)
        #expect(template.variables == ["input"])
        #expect(try template.render(["input": "me"]) == #"Reply as JSON like {{"a": 1}} for me"#)
    }

    @Test func singleBracesAndBackslashesAreText() throws {
        let template = try PromptTemplate(#"{"a": 1} \n {{input}}"#)
        #expect(try template.render(["input": "x"]) == #"{"a": 1} \n x"#)
    }

    @Test func unterminatedPlaceholderFails() {
        #expect(throws: PromptTemplate.TemplateError.unterminatedPlaceholder(offset: 6)) { try PromptTemplate("Hello {{name") }
    }

    @Test func invalidNamesFail() {
        #expect(throws: PromptTemplate.TemplateError.invalidVariableName("first name", offset: 0)) { try PromptTemplate("{{first name}}") }
        #expect(throws: PromptTemplate.TemplateError.invalidVariableName("", offset: 0)) { try PromptTemplate("{{}}") }
        #expect(throws: PromptTemplate.TemplateError.invalidVariableName("1x", offset: 0)) { try PromptTemplate("{{1x}}") }
    }

    @Test func missingValueFailsRendering() throws {
        let template = try PromptTemplate("{{a}} {{b}}")
        #expect(throws: PromptTemplate.TemplateError.missingValue("b")) { try template.render(["a": "1"]) }
    }
}
