/// One CSV record with the line it starts on (RFC 4180: quoted fields may hold commas, quotes and newlines).
///
/// Hand-written rather than a CSV package because errors must name the line a record starts on, which needs the
/// parser to count newlines inside quoted fields.
struct CSVRecord {
    var fields: [String]
    var line: Int

    struct ParseError: Error {
        var line: Int
        var message: String
    }

    static func parse(_ text: String) throws(ParseError) -> [CSVRecord] {
        var records: [CSVRecord] = []
        var fields: [String] = []
        var field = ""
        var inQuotes = false
        var line = 1
        var recordLine = 1
        var quoteOpenedOn = 0
        var iterator = Array(text.unicodeScalars).makeIterator()
        var pending: Unicode.Scalar? = nil

        func next() -> Unicode.Scalar? {
            if let p = pending { pending = nil; return p }
            return iterator.next()
        }

        while let c = next() {
            if inQuotes {
                if c == "\"" {
                    if let n = next() {
                        if n == "\"" { field.unicodeScalars.append("\"") } else { inQuotes = false; pending = n }
                    } else {
                        inQuotes = false
                    }
                } else {
                    if c == "\n" { line += 1 }
                    field.unicodeScalars.append(c)
                }
                continue
            }
            switch c {
            case "\"":
                guard field.isEmpty else {
                    throw ParseError(line: line, message: "a quote inside an unquoted field; quote the whole field and double inner quotes")
                }
                inQuotes = true
                quoteOpenedOn = line
            case ",":
                fields.append(field)
                field = ""
            case "\r":
                continue
            case "\n":
                fields.append(field)
                records.append(CSVRecord(fields: fields, line: recordLine))
                fields = []
                field = ""
                line += 1
                recordLine = line
            default:
                field.unicodeScalars.append(c)
            }
        }
        if inQuotes { throw ParseError(line: quoteOpenedOn, message: "a quoted field is never closed") }
        if !field.isEmpty || !fields.isEmpty {
            fields.append(field)
            records.append(CSVRecord(fields: fields, line: recordLine))
        }
        return records
    }
}
