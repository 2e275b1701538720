// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import "@openzeppelin/contracts/proxy/ERC1967/ERC1967Proxy.sol";
import "@openzeppelin/contracts/utils/Create2.sol";
import "./AirlockAccount.sol";

/// @title Factory of Airlock smart accounts
/// @notice The ABI of eth-infinitism's SimpleAccountFactory (`createAccount(owner, salt)`, `getAddress(owner, salt)`),
///         so a user operation's initCode deploys the account at the address `getAddress` predicts.
/// @dev Unlike the v0.8 sample, anyone may call `createAccount`, not only the EntryPoint's SenderCreator: ERC-6492
///      verifiers deploy an undeployed account by calling its factory, so sign-in can check its signature. That is
///      safe because the owner is part of the CREATE2 address: whoever deploys it, the account is the owner's.
contract AirlockAccountFactory {
    AirlockAccount public immutable accountImplementation;

    constructor(IEntryPoint entryPoint) {
        accountImplementation = new AirlockAccount(entryPoint);
    }

    /// @notice Deploys the account of `owner` and `salt`, or returns it if it exists.
    function createAccount(address owner, uint256 salt) public returns (AirlockAccount account) {
        address predicted = getAddress(owner, salt);
        if (predicted.code.length > 0) return AirlockAccount(payable(predicted));
        account = AirlockAccount(payable(new ERC1967Proxy{salt: bytes32(salt)}(address(accountImplementation), _init(owner))));
    }

    /// @notice The counterfactual address of the account of `owner` and `salt`.
    function getAddress(address owner, uint256 salt) public view returns (address) {
        bytes memory proxy = abi.encodePacked(
            type(ERC1967Proxy).creationCode, abi.encode(address(accountImplementation), _init(owner))
        );
        return Create2.computeAddress(bytes32(salt), keccak256(proxy));
    }

    function _init(address owner) private pure returns (bytes memory) {
        return abi.encodeCall(SimpleAccount.initialize, (owner));
    }
}
