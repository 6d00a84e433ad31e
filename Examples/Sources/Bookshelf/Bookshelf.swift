import Foundation
import Gateway
