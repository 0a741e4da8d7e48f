import Foundation

extension String {
    var utf8Data: Data { Data(utf8) }
}
