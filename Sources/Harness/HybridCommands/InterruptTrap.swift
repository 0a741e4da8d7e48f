import Foundation
import HybridLocalModel
import Synchronization

/// Turns the first Ctrl-C (or SIGTERM) into a graceful stop and the second into an immediate exit.
///
/// The graceful stop cancels the given task: the runner stops dispatching, in-flight requests are cancelled, and
/// the run is marked interrupted so `--resume` can finish it. Child processes (the local model server) are killed
/// either way.
final class InterruptTrap: Sendable {
  private let sources = Mutex<[any DispatchSourceSignal]>([])
  private let count = Mutex(0)

  func install(onFirst: @escaping @Sendable () -> Void) {
    sources.withLock { sources in
      for sig in [SIGINT, SIGTERM] {
        signal(sig, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
        source.setEventHandler { [self] in
          let n = count.withLock { n -> Int in
            n += 1
            return n
          }
          if n == 1 {
            FileHandle.standardError.write(
              Data(
                "\nstopping: cancelling requests in flight (Ctrl-C again to quit at once)\n".utf8))
            onFirst()
          } else {
            ChildProcessReaper.killAll()
            exit(128 + sig)
          }
        }
        source.resume()
        sources.append(source)
      }
    }
  }

  /// True once a signal arrived.
  var fired: Bool { count.withLock { $0 > 0 } }
}
