#include "core/git/commits.h"

#include <memory>

namespace rr {
namespace {

Signature SignatureOf(const git_signature* s) {
  Signature out;
  if (!s) return out;
  if (s->name) out.name = s->name;
  if (s->email) out.email = s->email;
  out.time = static_cast<int64_t>(s->when.time);
  out.offset = s->when.offset;
  return out;
}

}  // namespace

Result<CommitDetails> ReadCommit(GitRepo& git, const CommitId& id) {
  git_commit* raw = nullptr;
  if (git_commit_lookup(&raw, git.raw(), &id.oid()) != 0) {
    return Error{"commit " + id.Short() + " cannot be read: " + LastGitError()};
  }
  std::unique_ptr<git_commit, Deleter> c(raw);
  CommitDetails d;
  d.id = id;
  // git_commit_author / _committer: the signatures as recorded (no mailmap).
  d.author = SignatureOf(git_commit_author(c.get()));
  d.committer = SignatureOf(git_commit_committer(c.get()));
  const unsigned int n = git_commit_parentcount(c.get());
  d.parents.reserve(n);
  for (unsigned int i = 0; i < n; ++i) {
    if (const git_oid* p = git_commit_parent_id(c.get(), i)) d.parents.emplace_back(*p);
  }
  if (const char* msg = git_commit_message(c.get())) d.message = msg;
  d.tree = *git_commit_tree_id(c.get());
  return d;
}

}  // namespace rr
