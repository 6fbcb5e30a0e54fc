import Foundation
import Sift

// Placeholder entry replaced by the benchmark harness (issue 5).
print("sift-bench: not yet implemented")
