#include "profile_plot.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>

namespace octet::cli {
namespace {

constexpr int kWidth = 1000;
constexpr int kLabelRight = 260;  // labels end here, bars start after a gap
constexpr int kBarLeft = 270;
constexpr int kBarWidth = 380;  // the slowest row's bar
constexpr int kRow = 22;
constexpr int kMaxNodes = 15;

std::string Escape(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string Format(const char* format, double a, double b, double c) {
  char buffer[128];
  std::snprintf(buffer, sizeof buffer, format, a, b, c);
  return buffer;
}

// One labelled bar at row y: its length is micros relative to the section's slowest row.
void Bar(std::ostringstream& svg, int y, const std::string& label, double micros, double longest,
         double total, double macs, const std::string& kernel, const char* colour) {
  const double fraction = longest > 0 ? micros / longest : 0;
  const int width = std::max(1, static_cast<int>(fraction * kBarWidth + 0.5));
  const double share = total > 0 ? 100 * micros / total : 0;
  const double gmacs = Gmacs(macs, micros);
  std::string numbers = gmacs > 0
                            ? Format("%.3f ms  %.1f%%  %.1f GMAC/s", micros / 1000, share, gmacs)
                            : Format("%.3f ms  %.1f%%", micros / 1000, share, 0);
  svg << "<text x=\"" << kLabelRight << "\" y=\"" << y + 15 << "\" text-anchor=\"end\">"
      << Escape(label) << "</text>\n";
  svg << "<rect x=\"" << kBarLeft << "\" y=\"" << y + 3 << "\" width=\"" << width << "\" height=\""
      << kRow - 6 << "\" fill=\"" << colour << "\"><title>" << Escape(label + ": " + numbers)
      << "</title></rect>\n";
  svg << "<text x=\"" << kBarLeft + width + 6 << "\" y=\"" << y + 15 << "\">"
      << Escape(numbers + (kernel.empty() ? "" : "  " + kernel)) << "</text>\n";
}

}  // namespace

std::string ProfilePlotSvg(const ProfileSummary& s, const std::string& title) {
  const size_t nodes = std::min<size_t>(s.nodes.size(), kMaxNodes);
  const int height = 70 + static_cast<int>(s.ops.size() + nodes) * kRow + 50;
  std::ostringstream svg;
  svg << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << kWidth << "\" height=\"" << height
      << "\" viewBox=\"0 0 " << kWidth << " " << height
      << "\" font-family=\"DejaVu Sans, Arial, sans-serif\" font-size=\"12\">\n"
      << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  svg << "<text x=\"10\" y=\"22\" font-size=\"15\" font-weight=\"bold\">" << Escape(title)
      << "</text>\n";
  svg << "<text x=\"10\" y=\"42\">"
      << Escape(Format("%.3f ms per invoke in nodes, medians of %.0f runs", s.total_micros / 1000,
                       s.runs, 0))
      << "</text>\n";
  int y = 56;
  svg << "<text x=\"10\" y=\"" << y + 10 << "\" font-weight=\"bold\">by op</text>\n";
  y += 14;
  const double longest_op = s.ops.empty() ? 0 : s.ops.front().micros;
  for (const auto& op : s.ops) {
    Bar(svg, y, op.name + " (" + std::to_string(op.nodes) + ")", op.micros, longest_op,
        s.total_micros, op.macs, op.kernels, "#4878a8");
    y += kRow;
  }
  y += 10;
  svg << "<text x=\"10\" y=\"" << y + 10 << "\" font-weight=\"bold\">slowest nodes</text>\n";
  y += 14;
  const double longest_node = s.nodes.empty() ? 0 : s.nodes.front().micros;
  for (size_t i = 0; i < nodes; ++i) {
    const auto& n = s.nodes[i];
    Bar(svg, y, "#" + std::to_string(n.index) + " " + n.op + " " + n.output_shape, n.micros,
        longest_node, s.total_micros, n.macs, n.kernel, "#d08040");
    y += kRow;
  }
  svg << "</svg>\n";
  return svg.str();
}

bool WriteProfilePlot(const ProfileSummary& summary, const std::string& title,
                      const std::string& path, std::string* error) {
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  if (!file) {
    *error = "cannot write the profile plot '" + path + "'";
    return false;
  }
  file << ProfilePlotSvg(summary, title);
  file.close();
  if (!file) {
    *error = "cannot write the profile plot '" + path + "'";
    return false;
  }
  return true;
}

}  // namespace octet::cli
