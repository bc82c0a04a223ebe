// `octet bench --profile --plot FILE.svg`: the profile as a bar chart, one bar per op type
// and one per slow node, sorted by time, labelled with time, share, GMAC/s and kernel.
#pragma once

#include <string>

#include "profile.h"

namespace octet::cli {

// The chart as a standalone SVG document; `title` heads it (model, runs, path).
std::string ProfilePlotSvg(const ProfileSummary& summary, const std::string& title);

// Writes ProfilePlotSvg to `path`; false (with `error`) when the file cannot be written.
bool WriteProfilePlot(const ProfileSummary& summary, const std::string& title,
                      const std::string& path, std::string* error);

}  // namespace octet::cli
