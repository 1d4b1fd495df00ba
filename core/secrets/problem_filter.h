// The secret filter for the lines the server writes before the configured one is in force: a
// configuration it cannot read, a plugin it cannot load, a command line it does not take. Such
// a line may quote what the operator wrote (a plugin's path, a value, an argument), and what
// the operator wrote may hold a secret (`postgres://admin:…@db`), so it passes a filter too.
//
// LastResortDetectors: what the core itself hides when not even the built-in detectors can be
// loaded (their plugin missing or refused): a URL's password (`scheme://user:password@`) and
// a run of 20 or more letters, digits, '_', '-', '+', '=' that mixes letters and digits (a
// token's shape). Cruder than the built-in detectors, so it hides more than they would; it
// serves problem lines only, never an answer.
#pragma once

#include <memory>
#include <vector>

#include "core/secrets/secret_filter.h"

namespace rr {

std::vector<SecretFilter::Detector> LastResortDetectors();

}  // namespace rr
