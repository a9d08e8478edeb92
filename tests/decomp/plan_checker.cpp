// Structural checker for lw::Plan walks; see plan_checker.hpp. Expected relations come from the
// fixup protocol (reference §2.3-2.5), not from the planners' own arithmetic.
#include "tests/decomp/plan_checker.hpp"

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/topological_sort.hpp>
#include <iterator>
#include <sstream>

namespace lw_test {

namespace {

struct Node {
  int64_t cta = -1;  // -1: separate-reduction launch
  lw::Segment s;
};

const char* role_name(lw::Role r) {
  switch (r) {
    case lw::Role::Whole:
      return "Whole";
    case lw::Role::StorePartial:
      return "StorePartial";
    case lw::Role::Accumulate:
      return "Accumulate";
    case lw::Role::Final:
      return "Final";
  }
  return "?";
}

std::string describe(const Node& n) {
  std::ostringstream o;
  o << "[cta " << n.cta << " work " << n.s.work_id << " tile " << n.s.tile << " k " << n.s.k_begin
    << ".." << n.s.k_end << " " << role_name(n.s.role) << " slot " << n.s.slot << " load "
    << n.s.load_slots << " wait " << n.s.wait_value << " signal " << n.s.signal
    << (n.s.reduction_only ? " reduction" : "") << "]";
  return o.str();
}

bool is_owner(const lw::Segment& s) {
  return s.role == lw::Role::Whole || s.role == lw::Role::Final;
}

bool same_segment(const lw::Segment& a, const lw::Segment& b) {
  return a.work_id == b.work_id && a.tile == b.tile && a.k_begin == b.k_begin &&
         a.k_end == b.k_end && a.role == b.role && a.slot == b.slot &&
         a.load_slots == b.load_slots && a.wait_value == b.wait_value && a.signal == b.signal &&
         a.reduction_only == b.reduction_only;
}

// A plan without a split region: the whole-tile walk (the ping-pong kernels') gives CTA `cta` the
// segments walk_next gives it. Empty when it does.
std::string check_whole_tile_walk(const lw::Plan& p, int64_t cta,
                                  const std::vector<lw::Segment>& walked) {
  lw::CtaWalk w;
  lw::walk_begin(p, cta, w);
  lw::Segment s;
  size_t i = 0;
  for (; lw::walk_next_whole(p, w, s); ++i) {
    if (i >= walked.size() || !same_segment(s, walked[i])) {
      return "cta " + std::to_string(cta) + ": walk_next_whole's segment " + std::to_string(i) +
             " differs from walk_next's";
    }
  }
  if (i != walked.size()) return "cta " + std::to_string(cta) + ": walk_next_whole ends early";
  return {};
}

}  // namespace

std::vector<lw::Segment> walk_cta(const lw::Plan& p, int64_t cta) {
  std::vector<lw::Segment> out;
  lw::CtaWalk w;
  lw::walk_begin(p, cta, w);
  lw::Segment s;
  const int64_t cap = p.tiles * p.k_tiles + p.work_units + 16;
  while (lw::walk_next(p, w, s)) {
    out.push_back(s);
    if (static_cast<int64_t>(out.size()) > cap) break;
  }
  return out;
}

PlanSegments walk_plan(const lw::Plan& p) {
  PlanSegments r;
  for (int64_t c = 0; c < p.grid; ++c) r.ctas.push_back(walk_cta(p, c));
  for (int64_t i = 0; i < lw::reduction_grid(p); ++i)
    r.reduction.push_back(lw::reduction_segment(p, i));
  return r;
}

std::string check_plan(const lw::Plan& p, int64_t resident_ctas) {
  std::ostringstream err;
  const int64_t kt = p.k_tiles;
  if (p.tiles != p.tiles_m * p.tiles_n || kt < 1 || p.grid < 1) {
    err << "bad geometry: tiles " << p.tiles << " kt " << kt << " grid " << p.grid;
    return err.str();
  }
  if (p.split_tiles < 0 || p.split_tiles > p.tiles ||
      p.work_units != p.split_units + (p.tiles - p.split_tiles)) {
    err << "work_units " << p.work_units << " != split_units " << p.split_units << " + dp tiles "
        << p.tiles - p.split_tiles;
    return err.str();
  }
  if (p.split_mode == lw::SplitMode::None && p.split_units != 0) {
    err << "a plan without split mode has " << p.split_units << " split units";
    return err.str();
  }

  // Collect every segment as a graph node.
  std::vector<Node> nodes;
  std::vector<std::vector<int64_t>> cta_nodes(p.grid);
  const int64_t cap = p.tiles * kt + p.work_units + 16;
  for (int64_t c = 0; c < p.grid; ++c) {
    const auto segs = walk_cta(p, c);
    if (static_cast<int64_t>(segs.size()) > cap) {
      err << "cta " << c << " walk does not terminate";
      return err.str();
    }
    if (p.split_units == 0) {
      const std::string e = check_whole_tile_walk(p, c, segs);
      if (!e.empty()) return e;
    }
    int64_t prev_work = -1;
    for (const auto& s : segs) {
      Node n{c, s};
      if (s.reduction_only) return "main-launch segment marked reduction_only " + describe(n);
      if (s.tile < 0 || s.tile >= p.tiles) return "tile out of range " + describe(n);
      if (!(0 <= s.k_begin && s.k_begin < s.k_end && s.k_end <= kt)) {
        return "empty or out-of-range k range " + describe(n);
      }
      if (s.work_id < prev_work || s.work_id >= p.work_units || s.work_id % p.grid != c) {
        return "work id not increasing / not cta mod grid / out of range " + describe(n);
      }
      prev_work = s.work_id;
      const bool full = s.k_begin == 0 && s.k_end == kt;
      if (full != (s.role == lw::Role::Whole))
        return "Whole iff full k range violated " + describe(n);
      if (s.role == lw::Role::Whole && (s.signal != 0 || s.load_slots != 0 || s.wait_value != 0)) {
        return "Whole segment with fixup fields " + describe(n);
      }
      cta_nodes[c].push_back(static_cast<int64_t>(nodes.size()));
      nodes.push_back(n);
    }
  }
  for (int64_t r = 0; r < lw::reduction_grid(p); ++r) {
    Node n{-1, lw::reduction_segment(p, r)};
    if (!n.s.reduction_only || n.s.role != lw::Role::Final || n.s.tile != r) {
      return "bad reduction segment " + describe(n);
    }
    nodes.push_back(n);
  }

  // Coverage: every (tile, k) exactly once by MAC-loop segments.
  std::vector<int32_t> cover(static_cast<size_t>(p.tiles * kt), 0);
  std::vector<std::vector<int64_t>> tile_nodes(p.tiles);
  for (int64_t i = 0; i < static_cast<int64_t>(nodes.size()); ++i) {
    const auto& s = nodes[i].s;
    tile_nodes[s.tile].push_back(i);
    if (s.reduction_only) continue;
    for (int64_t k = s.k_begin; k < s.k_end; ++k) ++cover[s.tile * kt + k];
  }
  for (int64_t t = 0; t < p.tiles; ++t) {
    for (int64_t k = 0; k < kt; ++k) {
      if (cover[t * kt + k] != 1) {
        err << "tile " << t << " k " << k << " covered " << cover[t * kt + k] << " times";
        return err.str();
      }
    }
  }

  // Per tile: one epilogue owner; the owner side matches plan.owner.
  std::vector<int64_t> final_of(p.tiles, -1);
  for (int64_t t = 0; t < p.tiles; ++t) {
    int owners = 0;
    for (int64_t i : tile_nodes[t]) {
      const auto& s = nodes[i].s;
      if (!is_owner(s)) continue;
      ++owners;
      if (s.role == lw::Role::Final) final_of[t] = i;
      if (s.role == lw::Role::Final && !s.reduction_only) {
        const bool side_ok = p.owner == lw::FixupOwner::LastK ? s.k_end == kt : s.k_begin == 0;
        if (!side_ok) return "Final on the wrong side for plan.owner " + describe(nodes[i]);
      }
    }
    if (owners != 1) {
      err << "tile " << t << " has " << owners << " epilogue owners";
      return err.str();
    }
    if (final_of[t] < 0 && tile_nodes[t].size() != 1) {
      err << "tile " << t << " has a Whole segment and other contributors";
      return err.str();
    }
  }

  // Signal -> wait edges of the wait graph (producer node, consumer node).
  std::vector<std::pair<int64_t, int64_t>> waits;
  const int64_t ws = p.workspace_slots;
  if (p.storage == lw::FixupStorage::Slots) {
    std::vector<int64_t> writer(ws > 0 ? ws : 0, -1), reader(ws > 0 ? ws : 0, -1);
    for (int64_t i = 0; i < static_cast<int64_t>(nodes.size()); ++i) {
      const auto& s = nodes[i].s;
      if (s.role == lw::Role::Accumulate)
        return "Accumulate with Slots storage " + describe(nodes[i]);
      if (s.role == lw::Role::StorePartial) {
        if (s.slot < 0 || s.slot >= ws)
          return "StorePartial slot out of workspace " + describe(nodes[i]);
        if (writer[s.slot] >= 0) return "slot written twice " + describe(nodes[i]);
        if (s.signal < 1 || s.wait_value != 0)
          return "StorePartial must signal, not wait " + describe(nodes[i]);
        writer[s.slot] = i;
      } else if (s.role == lw::Role::Final) {
        if (s.load_slots < 1 || s.slot < 0 || s.slot + s.load_slots > ws || s.wait_value < 1) {
          return "Final loads outside workspace / waits for nothing " + describe(nodes[i]);
        }
        for (int64_t q = s.slot; q < s.slot + s.load_slots; ++q) {
          if (reader[q] >= 0) return "slot read twice " + describe(nodes[i]);
          reader[q] = i;
        }
      }
    }
    for (int64_t q = 0; q < ws; ++q) {
      if ((writer[q] >= 0) != (reader[q] >= 0)) {
        err << "slot " << q
            << (writer[q] >= 0 ? " written but never read " : " read but never written ")
            << describe(nodes[writer[q] >= 0 ? writer[q] : reader[q]]);
        return err.str();
      }
      if (writer[q] < 0) continue;
      const auto& w = nodes[writer[q]].s;
      const auto& r = nodes[reader[q]].s;
      if (w.tile != r.tile)
        return "slot read by another tile's Final " + describe(nodes[writer[q]]);
      if (w.signal < r.wait_value)
        return "flag never reaches the Final's wait " + describe(nodes[writer[q]]);
      if (q > r.slot && nodes[writer[q - 1]].s.k_begin >= w.k_begin) {
        return "Final loads partials out of k order " + describe(nodes[reader[q]]);
      }
      waits.emplace_back(writer[q], reader[q]);
    }
  } else {
    std::vector<int64_t> slot_tile(ws > 0 ? ws : 0, -1);
    for (int64_t t = 0; t < p.tiles; ++t) {
      if (final_of[t] < 0) continue;
      const auto& fin = nodes[final_of[t]].s;
      std::vector<int64_t> peers;
      int64_t stores = 0, sum_signal = 0, store_node = -1;
      for (int64_t i : tile_nodes[t]) {
        const auto& s = nodes[i].s;
        if (s.slot < 0 || s.slot >= ws)
          return "in-place slot out of workspace " + describe(nodes[i]);
        if (s.slot != fin.slot) return "tile pieces use different slots " + describe(nodes[i]);
        if (i == final_of[t]) continue;
        peers.push_back(i);
        if (s.signal != lw::segment_iters(s))
          return "in-place signal != k-tiles added " + describe(nodes[i]);
        sum_signal += s.signal;
        if (s.role == lw::Role::StorePartial) {
          ++stores;
          store_node = i;
          if (s.wait_value != 0) return "initializing StorePartial waits " + describe(nodes[i]);
        }
      }
      if (slot_tile[fin.slot] >= 0)
        return "two tiles share an in-place slot " + describe(nodes[final_of[t]]);
      slot_tile[fin.slot] = t;
      if (stores != 1) {
        err << "tile " << t << " has " << stores << " initializing StorePartials";
        return err.str();
      }
      if (fin.load_slots != 1 || fin.wait_value != kt - lw::segment_iters(fin) ||
          sum_signal != fin.wait_value) {
        err << "Final wait " << fin.wait_value << " vs kt - own " << kt - lw::segment_iters(fin)
            << " vs peers' signals " << sum_signal << " " << describe(nodes[final_of[t]]);
        return err.str();
      }
      for (int64_t i : peers) waits.emplace_back(i, final_of[t]);
      for (int64_t i : peers) {
        const auto& s = nodes[i].s;
        if (s.role != lw::Role::Accumulate) continue;
        if (s.load_slots != 1 || s.wait_value < 1 || s.wait_value > sum_signal - s.signal) {
          return "Accumulate wait unreachable " + describe(nodes[i]);
        }
        if (p.storage == lw::FixupStorage::InPlaceTurnstile) {
          int64_t before = 0;
          for (int64_t j : peers) {
            if (nodes[j].s.k_end <= s.k_begin) {
              before += nodes[j].s.signal;
              waits.emplace_back(j, i);
            }
          }
          if (s.wait_value != before)
            return "turnstile wait != lower-k peers' k-tiles " + describe(nodes[i]);
          if (nodes[store_node].s.k_begin > s.k_begin) {
            return "turnstile initializer is not the lowest-k peer " + describe(nodes[store_node]);
          }
        } else {
          waits.emplace_back(store_node, i);
        }
      }
    }
  }

  // Launch-level deadlock freedom: persistent plans that wait need every CTA resident; plain
  // launches may only wait on lower CTA ids (dispatched no later).
  if (!waits.empty() && p.persistent && p.grid > resident_ctas) {
    err << "persistent plan with waits has grid " << p.grid << " > resident CTAs " << resident_ctas;
    return err.str();
  }
  if (!p.persistent) {
    for (const auto& e : waits) {
      const auto& a = nodes[e.first];
      const auto& b = nodes[e.second];
      if (b.cta >= 0 && a.cta >= b.cta) {
        return "non-persistent launch waits on a later CTA " + describe(a) + " -> " + describe(b);
      }
    }
  }

  // Wait graph: program order + signal->wait edges must be acyclic.
  using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS>;
  Graph g(nodes.size());
  for (const auto& list : cta_nodes) {
    for (size_t i = 1; i < list.size(); ++i) boost::add_edge(list[i - 1], list[i], g);
  }
  for (const auto& e : waits) boost::add_edge(e.first, e.second, g);
  std::vector<Graph::vertex_descriptor> order;
  try {
    boost::topological_sort(g, std::back_inserter(order));
  } catch (const boost::not_a_dag&) {
    return "wait graph has a cycle (deadlock)";
  }
  return "";
}

}  // namespace lw_test
