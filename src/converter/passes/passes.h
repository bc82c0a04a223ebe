// The fusion passes (one rewrite a file), registered by name in pass_manager.cc.
#ifndef OCTET_CONVERTER_PASSES_PASSES_H_
#define OCTET_CONVERTER_PASSES_PASSES_H_

#include <string>

#include "converter/pass_manager.h"

namespace octet::converter::passes {

bool RemoveIdentity(edit::ModelT& model, PassLog& log, std::string* error);
bool FoldConstants(edit::ModelT& model, PassLog& log, std::string* error);
bool FoldPad(edit::ModelT& model, PassLog& log, std::string* error);
bool FoldBatchNorm(edit::ModelT& model, PassLog& log, std::string* error);
bool FuseHardSwish(edit::ModelT& model, PassLog& log, std::string* error);
bool FuseGelu(edit::ModelT& model, PassLog& log, std::string* error);
bool FuseLstmCells(edit::ModelT& model, PassLog& log, std::string* error);
bool FuseActivation(edit::ModelT& model, PassLog& log, std::string* error);
bool DedupeConstants(edit::ModelT& model, PassLog& log, std::string* error);
bool RemoveDead(edit::ModelT& model, PassLog& log, std::string* error);

}  // namespace octet::converter::passes

#endif  // OCTET_CONVERTER_PASSES_PASSES_H_
